/// One option a command accepts: the single source of its parsing, its
/// validation, its line in the help, the man page and the shell completions.
struct OptionDeclaration: Sendable {
  /// How many values the option takes.
  enum Kind: Sendable, Equatable {
    /// No value: `--json`.
    case flag
    /// One value, given at most once: `--rate 30`.
    case value
    /// One value each time, given any number of times: `--device A --device B`.
    case repeatable
  }

  /// What a value must be; checked while parsing, before the command runs.
  enum Validation: Sendable {
    case any
    /// A finite number within the range.
    case number(ClosedRange<Double>)
    /// One of these words.
    case choices([String])
    /// A check of the command's own: throws the message for a bad value.
    case custom(@Sendable (String) throws(UsageError) -> Void)
  }

  /// What a shell offers for the value.
  enum Completion: Sendable, Equatable {
    case none
    /// Any path.
    case file
    /// The validation's choices.
    case choices([String])
  }

  /// The long name without dashes: `output` for `--output`.
  var name: String
  /// The short alias: `o` for `-o`.
  var short: Character?
  /// The value's placeholder in the help: `FILE`, `jsonl|tty|html`; `nil` for a flag.
  var valueName: String?
  /// The help's description. Line breaks are kept; a longer line is wrapped.
  var help: String
  var kind: Kind
  var validation: Validation
  var completion: Completion

  /// A flag: `--json`.
  static func flag(_ name: String, short: Character? = nil, help: String) -> Self {
    Self(
      name: name, short: short, valueName: nil, help: help, kind: .flag, validation: .any,
      completion: .none)
  }

  /// An option with one value. Its placeholder is `valueName`, or for choices
  /// the choices joined by `|`; a placeholder with FILE or PATH in it completes
  /// paths.
  static func value(
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
  func describing(_ help: String) -> Self {
    var copy = self
    copy.help = help
    return copy
  }

  /// `-o, --output FILE`, as the help's first column shows it.
  var label: String {
    var text = short.map { "-\($0), " } ?? ""
    text += "--\(name)"
    if let valueName { text += " \(valueName)" }
    return text
  }

  /// `value` checked against ``validation``.
  func check(_ value: String) throws(UsageError) {
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

/// A positional argument, for the help's ARGUMENTS section and the completions.
struct ArgumentDeclaration: Sendable {
  /// The placeholder: `FILE`.
  var name: String
  var help: String
  var completion: OptionDeclaration.Completion = .file
}

/// The options every command takes.
enum StandardOptions {
  static let help = OptionDeclaration.flag("help", short: "h", help: "Show help information.")
}

extension Double {
  /// The number without a trailing `.0`: `60`, `0.5`.
  var compact: String {
    self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
  }
}

extension CaseIterable where Self: RawRepresentable, RawValue == String {
  /// Every case's spelling, for `.choices`.
  static var spellings: [String] { allCases.map(\.rawValue) }
}
