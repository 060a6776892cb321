/// libFuzzer target: any bytes as a command line for CommandLineOptions'
/// argument parser (`tilt-cli`'s). The input is split at NUL bytes into arguments, as the kernel hands
/// them over in `argv`; the first byte picks how many positionals the command
/// takes. Parsing must give the arguments or a `UsageError` with a message;
/// what it gives must fit the declarations: only declared names, one value
/// for a single-valued option, and values their validation accepts.
private enum FuzzFormat: String, CaseIterable {
  case jsonl
  case csv
}

/// The options, read back through their keys as a command reads them.
private enum Keys {
  static let rate = Option<Double>.number(
    "rate", short: "r", "HZ", help: "A number.", in: -1000...1000)
  static let format = Option<FuzzFormat>.choice("format", help: "A choice.")
  static let output = Option<String>.value("output", short: "o", "FILE", help: "Any value.")
  static let mountMatrix = Option<String>.value("mount-matrix", "M", help: "Any value.")
  static let alpha = Option<String>.value(
    "alpha", "A", help: "A check of its own.",
    validation: .custom { text throws(UsageError) in
      guard text.hasPrefix("a") else { throw UsageError("'--alpha' needs a leading a") }
    })
  static let device = RepeatableOption("device", "PATH", help: "Repeatable.")
  static let json = Flag("json", short: "j", help: "A flag.")
  static let verbose = Flag("verbose", help: "A flag.")
}

private let declarations: [OptionDeclaration] =
  ([
    Keys.rate, Keys.format, Keys.output, Keys.mountMatrix, Keys.alpha, Keys.device, Keys.json,
    Keys.verbose, StandardOptions.help,
  ] as [any OptionKey]).map(\.declaration)

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
    }
    // With --help the values are not validated: the command prints its help.
    guard !parsed[StandardOptions.help] else { return 0 }
    if let value = try parsed[Keys.rate] {
      precondition(value.isFinite && (-1000...1000).contains(value), "number out of range")
    }
    let format = try parsed[Keys.format]
    precondition(parsed.isGiven(Keys.format) == (format != nil), "a choice not checked")
    if let alpha = try parsed[Keys.alpha] {
      precondition(alpha.hasPrefix("a"), "a custom check skipped")
    }
    precondition(parsed[Keys.device] == (parsed.values["device"] ?? []), "a repeatable lost")
    _ = (try parsed[Keys.output], try parsed[Keys.mountMatrix], parsed[Keys.json])
    _ = parsed[Keys.verbose]
  } catch {
    precondition(!error.description.isEmpty, "a usage error without a message")
  }
  return 0
}
