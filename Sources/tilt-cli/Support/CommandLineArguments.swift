/// A command's arguments, parsed against its option declarations.
///
/// Accepts `--name value`, `--name=value`, short aliases (`-o FILE`) and `--`
/// to end options; `-h` and `--help` are flags like any other. Anything the
/// declarations do not accept is a ``UsageError``: an unknown option, a
/// missing value, a single-valued option given twice, one positional too many,
/// or a value its validation refuses. With `--help` the values are not
/// validated, so that the help shows even beside a mistyped value.
struct CommandLineArguments {
  private(set) var values: [String: [String]] = [:]
  private(set) var flags: Set<String> = []
  private(set) var positionals: [String] = []

  /// The name `--help` is parsed under.
  static let helpName = "help"

  init(
    _ arguments: [String], options declarations: [OptionDeclaration], maxPositionals: Int
  ) throws(UsageError) {
    var byName: [String: OptionDeclaration] = [:]
    var byShort: [Character: OptionDeclaration] = [:]
    for declaration in declarations {
      byName[declaration.name] = declaration
      if let short = declaration.short { byShort[short] = declaration }
    }
    /// Whether `argument` spells one of the options (`--name`, `--name=…`,
    /// `-o`); a negative number does not.
    func namesAnOption(_ argument: String) -> Bool {
      if argument.hasPrefix("--") {
        return byName[String(argument.dropFirst(2).prefix { $0 != "=" })] != nil
      }
      return argument.count == 2 && argument.hasPrefix("-") && byShort[argument.last!] != nil
    }

    var given: [(declaration: OptionDeclaration, value: String)] = []
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        guard positionals.count < maxPositionals else {
          throw UsageError("unexpected argument '\(argument)'")
        }
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      let declaration: OptionDeclaration
      var inlineValue: String?
      if argument.hasPrefix("--") {
        var name = String(argument.dropFirst(2))
        if let equals = name.firstIndex(of: "=") {
          inlineValue = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
        }
        guard let found = byName[name] else {
          var message = "unknown option '--\(name)'"
          if let near = EditDistance.suggestion(for: name, among: byName.keys) {
            message += "; did you mean '--\(near)'?"
          }
          throw UsageError(message)
        }
        declaration = found
      } else {
        guard argument.count == 2, let found = byShort[argument.last!] else {
          throw UsageError("unknown option '\(argument)'")
        }
        declaration = found
      }
      let name = declaration.name
      if declaration.kind == .flag {
        guard inlineValue == nil else { throw UsageError("'--\(name)' takes no value") }
        flags.insert(name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else {
        guard index < arguments.count else { throw UsageError("missing value for '--\(name)'") }
        value = arguments[index]
        // `-o --every-sample`: the user left the value out, not a file named so.
        if namesAnOption(value) {
          throw UsageError(
            "missing value for '--\(name)' ('\(value)' is an option; "
              + "write --\(name)=\(value) if that is the value)")
        }
        index += 1
      }
      if declaration.kind == .value, let first = values[name]?.first {
        throw UsageError(
          "'--\(name)' is given twice ('\(first)' and '\(value)'); give it once")
      }
      values[name, default: []].append(value)
      given.append((declaration, value))
    }
    guard !flags.contains(Self.helpName) else { return }
    for (declaration, value) in given { try declaration.check(value) }
  }

  func has(_ flag: String) -> Bool { flags.contains(flag) }

  /// The value of a single-valued option.
  func string(_ name: String) -> String? { values[name]?.last }

  /// Every value of a repeatable option, in the order given.
  func strings(_ name: String) -> [String] { values[name] ?? [] }

  /// The value of `--name`, declared with a number validation, as a number.
  func number(_ name: String) -> Double? { string(name).flatMap { Double($0) } }

  /// The value of `--name` as one of `choices`.
  func choice<T: RawRepresentable & CaseIterable>(_ name: String, as: T.Type) throws(UsageError)
    -> T?
  where T.RawValue == String {
    guard let text = values[name]?.last else { return nil }
    guard let value = T(rawValue: text) else {
      let names = T.allCases.map(\.rawValue).joined(separator: ", ")
      throw UsageError("'--\(name)' must be one of \(names), not '\(text)'")
    }
    return value
  }
}
