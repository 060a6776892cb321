/// One option a command accepts: the single source of its parsing, its
/// validation, its line in the help, the man page and the shell completions.
public struct OptionDeclaration: Sendable {
  /// How many values the option takes.
  public enum Kind: Sendable, Equatable {
    /// No value: `--json`.
    case flag
    /// One value, given at most once: `--rate 30`.
    case value
    /// One value each time, given any number of times: `--device A --device B`.
    case repeatable
  }

  /// What a value must be; checked while parsing, before the command runs.
  public enum Validation: Sendable {
    /// Any value.
    case any
    /// A finite number within the range.
    case number(ClosedRange<Double>)
    /// One of these words.
    case choices([String])
    /// A check of the command's own: throws the message for a bad value.
    case custom(@Sendable (String) throws(UsageError) -> Void)
  }

  /// What a shell offers for the value.
  public enum Completion: Sendable, Equatable {
    /// Nothing: the shell offers no words.
    case none
    /// Any path.
    case file
    /// The validation's choices.
    case choices([String])
  }

  /// The long name without dashes: `output` for `--output`.
  public var name: String
  /// The short alias: `o` for `-o`.
  public var short: Character?
  /// The value's placeholder in the help: `FILE`, `jsonl|tty|html`; `nil` for a flag.
  public var valueName: String?
  /// The help's description. Line breaks are kept; a longer line is wrapped.
  public var help: String
  public var kind: Kind
  public var validation: Validation
  public var completion: Completion

  /// An option from all its parts; ``flag(_:short:help:)`` and
  /// ``value(_:short:_:help:repeatable:validation:completion:)`` fill them in.
  public init(
    name: String, short: Character?, valueName: String?, help: String, kind: Kind,
    validation: Validation, completion: Completion
  ) {
    self.name = name
    self.short = short
    self.valueName = valueName
    self.help = help
    self.kind = kind
    self.validation = validation
    self.completion = completion
  }

  /// A flag: `--json`.
  public static func flag(_ name: String, short: Character? = nil, help: String) -> Self {
    Self(
      name: name, short: short, valueName: nil, help: help, kind: .flag, validation: .any,
      completion: .none)
  }

  /// An option with one value. Its placeholder is `valueName`, or for choices
  /// the choices joined by `|`; a placeholder with FILE or PATH in it completes
  /// paths.
  public static func value(
    _ name: String, short: Character? = nil, _ valueName: String? = nil,
    help: String, repeatable: Bool = false, validation: Validation = .any,
    completion: Completion? = nil
  ) -> Self {
    var placeholder = valueName ?? "VALUE"
    var offered = Completion.none
    if case .choices(let words) = validation {
      placeholder = valueName ?? words.joined(separator: "|")
      offered = .choices(words)
    } else if placeholder.contains("FILE") || placeholder.contains("PATH") {
      offered = .file
    }
    return Self(
      name: name, short: short, valueName: placeholder, help: help,
      kind: repeatable ? .repeatable : .value, validation: validation,
      completion: completion ?? offered)
  }

  /// The same option with another description: a command that takes a shared
  /// option for a purpose of its own.
  public func describing(_ help: String) -> Self {
    var copy = self
    copy.help = help
    return copy
  }

  /// `-o, --output FILE`, as the help's first column shows it.
  public var label: String {
    var text = short.map { "-\($0), " } ?? ""
    text += "--\(name)"
    if let valueName { text += " \(valueName)" }
    return text
  }

  /// `value` checked against ``validation``.
  public func check(_ value: String) throws(UsageError) {
    switch validation {
    case .any:
      return
    case .number(let range):
      guard let number = Double(value), number.isFinite else {
        throw UsageError("'--\(name)' needs a number, not '\(value)'")
      }
      guard range.contains(number) else {
        throw UsageError(
          "'--\(name)' must be between \(range.lowerBound.compact) and \(range.upperBound.compact), not \(value)"
        )
      }
    case .choices(let words):
      guard words.contains(value) else {
        throw UsageError(
          "'--\(name)' must be one of \(words.joined(separator: ", ")), not '\(value)'")
      }
    case .custom(let check):
      try check(value)
    }
  }
}

extension Double {
  /// The number without a trailing `.0`: `60`, `0.5`.
  public var compact: String {
    self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
  }
}

extension CaseIterable where Self: RawRepresentable, RawValue == String {
  /// Every case's spelling, for `.choices`.
  public static var spellings: [String] { allCases.map(\.rawValue) }
}
