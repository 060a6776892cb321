/// A typed key to an option: its declaration, and the one way a command reads
/// it back from ``CommandLineArguments``.
///
/// A command holds its keys as static values and builds its declaration list
/// from them, so the name is written once, in the declaration; a command reads
/// `arguments[Keys.output]`, and a misspelt key (`Keys.outptu`) does not
/// compile. There is no reader by name.
public protocol OptionKey: Sendable {
  /// The option's declaration: its parsing, its help, its completions.
  var declaration: OptionDeclaration { get }
}

/// A flag's key, read as whether it was given: `--json`.
public struct Flag: OptionKey {
  public let declaration: OptionDeclaration

  /// A flag: `--json`.
  public init(_ name: String, short: Character? = nil, help: String) {
    declaration = .flag(name, short: short, help: help)
  }
}

/// A single-valued option's key, read as its value turned into `Value`, or
/// `nil` when it was not given.
public struct Option<Value>: OptionKey {
  public let declaration: OptionDeclaration
  /// The value's text as a `Value`; the text passed the declaration's validation.
  let convert: @Sendable (String) throws(UsageError) -> Value

  /// A key of `declaration`, its text turned into a value by `convert`.
  public init(
    _ declaration: OptionDeclaration,
    convert: @escaping @Sendable (String) throws(UsageError) -> Value
  ) {
    self.declaration = declaration
    self.convert = convert
  }

  /// An option whose value `parse` checks and turns into a `Value`: the
  /// declaration's validation is the same `parse`, so a value it refuses is a
  /// usage error before the command runs.
  public static func parsed(
    _ name: String, short: Character? = nil, _ valueName: String? = nil, help: String,
    parse: @escaping @Sendable (String) throws(UsageError) -> Value
  ) -> Self {
    Self(
      .value(
        name, short: short, valueName, help: help,
        validation: .custom { text throws(UsageError) in _ = try parse(text) }),
      convert: parse)
  }

  /// The same option with another description: a command that takes a shared
  /// option for a purpose of its own.
  public func describing(_ help: String) -> Self {
    Self(declaration.describing(help), convert: convert)
  }
}

extension Option where Value == String {
  /// An option with one value, read as it was given.
  public static func value(
    _ name: String, short: Character? = nil, _ valueName: String? = nil, help: String,
    validation: OptionDeclaration.Validation = .any, completion: OptionDeclaration.Completion? = nil
  ) -> Self {
    Self(
      .value(
        name, short: short, valueName, help: help, validation: validation,
        completion: completion),
      convert: { $0 })
  }
}

extension Option where Value == Double {
  /// A number within `range`, read as a `Double`.
  public static func number(
    _ name: String, short: Character? = nil, _ valueName: String? = nil, help: String,
    in range: ClosedRange<Double>
  ) -> Self {
    let declaration = OptionDeclaration.value(
      name, short: short, valueName, help: help, validation: .number(range))
    return Self(declaration) { text throws(UsageError) in
      try declaration.check(text)
      guard let number = Double(text) else {
        throw UsageError("'--\(name)' needs a number, not '\(text)'")
      }
      return number
    }
  }
}

extension Option
where Value: RawRepresentable & CaseIterable & SendableMetatype, Value.RawValue == String {
  /// One of `Value`'s cases, by its spelling; the choices are the cases'.
  public static func choice(
    _ name: String, short: Character? = nil, _ valueName: String? = nil, help: String
  ) -> Self {
    let declaration = OptionDeclaration.value(
      name, short: short, valueName, help: help, validation: .choices(Value.spellings))
    return Self(declaration) { text throws(UsageError) in
      guard let value = Value(rawValue: text) else {
        throw UsageError(
          "'--\(name)' must be one of \(Value.spellings.joined(separator: ", ")), not '\(text)'")
      }
      return value
    }
  }
}

/// A repeatable option's key, read as every value given, in order: `--device A --device B`.
public struct RepeatableOption: OptionKey {
  public let declaration: OptionDeclaration

  /// An option given any number of times.
  public init(
    _ name: String, short: Character? = nil, _ valueName: String? = nil, help: String,
    validation: OptionDeclaration.Validation = .any
  ) {
    declaration = .value(
      name, short: short, valueName, help: help, repeatable: true, validation: validation)
  }
}
