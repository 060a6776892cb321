/// libFuzzer target: any bytes as a command line for `tilt-cli`'s argument
/// parser. The input is split at NUL bytes into arguments, as the kernel hands
/// them over in `argv`; the first byte picks how many positionals the command
/// takes. Parsing must give the arguments or a `UsageError` with a message;
/// what it gives must fit the declarations: only declared names, one value
/// for a single-valued option, and values their validation accepts.
private enum FuzzFormat: String, CaseIterable {
  case jsonl
  case csv
}

private let declarations: [OptionDeclaration] = [
  .value("rate", short: "r", "HZ", help: "A number.", validation: .number(-1000...1000)),
  .value("format", help: "A choice.", validation: .choices(FuzzFormat.spellings)),
  .value("output", short: "o", "FILE", help: "Any value."),
  .value("mount-matrix", "M", help: "Any value."),
  .value(
    "alpha", "A", help: "A check of its own.",
    validation: .custom { text throws(UsageError) in
      guard text.hasPrefix("a") else { throw UsageError("'--alpha' needs a leading a") }
    }),
  .value("device", "PATH", help: "Repeatable.", repeatable: true),
  .flag("json", short: "j", help: "A flag."),
  .flag("verbose", help: "A flag."),
  .flag("help", short: "h", help: "Help."),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLineArguments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = fuzzBytes(data, size)
  guard let first = bytes.first else { return 0 }
  let maxPositionals = Int(first % 4)
  let arguments = bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false).map {
    String(decoding: UnsafeRawBufferPointer(rebasing: $0), as: UTF8.self)
  }
  do {
    let parsed = try CommandLineArguments(
      arguments, options: declarations, maxPositionals: maxPositionals)
    precondition(parsed.positionals.count <= maxPositionals, "too many positionals")
    let flags = Set(declarations.filter { $0.kind == .flag }.map(\.name))
    precondition(parsed.flags.isSubset(of: flags), "a flag outside the declarations")
    for (name, values) in parsed.values {
      guard let declaration = declarations.first(where: { $0.name == name }) else {
        preconditionFailure("an option outside the declarations")
      }
      precondition(declaration.kind != .flag, "a flag with a value")
      precondition(declaration.kind == .repeatable || values.count == 1, "a repeated value")
      if parsed.has("help") { continue }
      if let value = parsed.number(name), case .number(let range) = declaration.validation {
        precondition(value.isFinite && range.contains(value), "number out of range")
      }
      if name == "format" {
        let choice = try parsed.choice(name, as: FuzzFormat.self)
        precondition(choice != nil, "a choice not checked")
      }
      if name == "alpha" { precondition(values[0].hasPrefix("a"), "a custom check skipped") }
    }
  } catch {
    precondition(!error.description.isEmpty, "a usage error without a message")
  }
  return 0
}
