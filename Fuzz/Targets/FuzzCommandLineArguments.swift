/// libFuzzer target: any bytes as a command line for `tilt-cli`'s argument
/// parser. The input is split at NUL bytes into arguments, as the kernel hands
/// them over in `argv`; the first byte picks how many positionals the command
/// takes. Parsing must give the arguments or a `UsageError` with a message;
/// what it gives must fit the spec, and reading the values as numbers or
/// choices must give a value in range or a `UsageError`, never a trap.
private enum FuzzFormat: String, CaseIterable {
  case jsonl
  case csv
}

private let spec = CommandLineArguments.Spec(
  options: ["rate", "format", "output", "mount-matrix", "alpha", "device"],
  flags: ["json", "verbose", "no-buttons"],
  aliases: ["o": "output", "r": "rate", "j": "json"])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLineArguments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = fuzzBytes(data, size)
  guard let first = bytes.first else { return 0 }
  var command = spec
  command.maxPositionals = Int(first % 4)
  let arguments = bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false).map {
    String(decoding: UnsafeRawBufferPointer(rebasing: $0), as: UTF8.self)
  }
  do {
    let parsed = try CommandLineArguments(arguments, spec: command)
    precondition(parsed.positionals.count <= command.maxPositionals, "too many positionals")
    precondition(parsed.flags.isSubset(of: command.flags), "a flag outside the spec")
    precondition(
      Set(parsed.values.keys).isSubset(of: command.options), "an option outside the spec")
    for name in command.options {
      do {
        if let value = try parsed.number(name, in: -1000...1000) {
          precondition(value.isFinite && (-1000...1000).contains(value), "number out of range")
        }
      } catch {
        precondition(!error.description.isEmpty, "a usage error without a message")
      }
      do {
        _ = try parsed.choice(name, as: FuzzFormat.self)
      } catch {
        precondition(error.description.contains("must be one of"), "unclear choice error")
      }
    }
  } catch {
    precondition(!error.description.isEmpty, "a usage error without a message")
  }
  return 0
}
