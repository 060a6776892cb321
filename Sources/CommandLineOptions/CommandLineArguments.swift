/// A command's arguments, parsed against its option declarations.
///
/// Accepts `--name value`, `--name=value`, short aliases (`-o FILE`) and `--`
/// to end options; `-h` and `--help` are flags like any other. Anything the
/// declarations do not accept is a ``UsageError``: an unknown option, a
/// missing value, a single-valued option given twice, one positional too many,
/// or a value its validation refuses. With `--help` the values are not
/// validated, so that the help shows even beside a mistyped value.
///
/// Options are read only through their keys (``Flag``, ``Option``,
/// ``RepeatableOption``): `arguments[Keys.output]`. There is no reader by
/// name, so a misspelt option is a compile error, not a quiet `nil`.
public struct CommandLineArguments {
  /// Each valued option's values by its long name, in the order given.
  var values: [String: [String]] = [:]
  /// The long names of the flags given.
  var flags: Set<String> = []
  /// The positional arguments, in order.
  public private(set) var positionals: [String] = []
  /// Every option the arguments were parsed against.
  public let declarations: [OptionDeclaration]
  /// The long names of the options read so far, given or not.
  private let reads = ReadLog()

  /// `arguments` (without the program and command names) parsed against
  /// `declarations`, with at most `maxPositionals` positional arguments.
  public init(
    _ arguments: [String], options declarations: [OptionDeclaration], maxPositionals: Int
  ) throws(UsageError) {
    self.declarations = declarations
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
    guard !flags.contains(StandardOptions.help.declaration.name) else { return }
    for (declaration, value) in given { try declaration.check(value) }
  }

  /// Whether the flag was given.
  public subscript(flag: Flag) -> Bool {
    reads.names.insert(flag.declaration.name)
    return flags.contains(flag.declaration.name)
  }

  /// The option's value, or `nil` when it was not given.
  public subscript<Value>(option: Option<Value>) -> Value? {
    get throws(UsageError) {
      reads.names.insert(option.declaration.name)
      guard let text = values[option.declaration.name]?.last else { return nil }
      return try option.convert(text)
    }
  }

  /// Every value of a repeatable option, in the order given.
  public subscript(option: RepeatableOption) -> [String] {
    reads.names.insert(option.declaration.name)
    return values[option.declaration.name] ?? []
  }

  /// Whether the option was given, whatever its kind.
  public func isGiven(_ option: any OptionKey) -> Bool {
    reads.names.insert(option.declaration.name)
    let name = option.declaration.name
    return option.declaration.kind == .flag ? flags.contains(name) : values[name] != nil
  }

  /// The declared options not read so far (`--help` aside): after a command
  /// has read its options, an option it declares but never reads.
  public var unread: [OptionDeclaration] {
    declarations.filter {
      $0.name != StandardOptions.help.declaration.name && !reads.names.contains($0.name)
    }
  }
}

/// The names of the options read, shared by the copies of one parse.
private final class ReadLog {
  var names: Set<String> = []
}
