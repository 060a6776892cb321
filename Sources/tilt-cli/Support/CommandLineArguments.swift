/// A command's arguments, split into options with values, flags and positionals.
///
/// Accepts `--name value`, `--name=value`, short aliases (`-o FILE`) and `--`
/// to end options. Anything it cannot place is a ``UsageError``.
struct CommandLineArguments {
  private(set) var values: [String: String] = [:]
  private(set) var flags: Set<String> = []
  private(set) var positionals: [String] = []

  /// What a command accepts.
  struct Spec {
    /// Options that take a value, by long name without dashes.
    var options: Set<String> = []
    /// Options without a value, by long name without dashes.
    var flags: Set<String> = []
    /// Short spellings: `"o": "output"`.
    var aliases: [Character: String] = [:]
    /// The most positional arguments the command takes.
    var maxPositionals = 0
    /// Names main.swift answers before the command parses (`--help`, and
    /// `--version` for plain `tilt-cli`): offered by "did you mean" too.
    var answeredElsewhere: Set<String> = ["help"]

    /// Whether `argument` spells one of these options or flags (`--name`,
    /// `--name=…`, `-o`); a negative number does not.
    func names(_ argument: String) -> Bool {
      if argument.hasPrefix("--") {
        let name = argument.dropFirst(2).prefix { $0 != "=" }
        return options.contains(String(name)) || flags.contains(String(name))
      }
      return argument.count == 2 && argument.hasPrefix("-") && aliases[argument.last!] != nil
    }
  }

  init(_ arguments: [String], spec: Spec) throws(UsageError) {
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        guard positionals.count < spec.maxPositionals else {
          throw UsageError("unexpected argument '\(argument)'")
        }
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name: String
      var inlineValue: String?
      if argument.hasPrefix("--") {
        name = String(argument.dropFirst(2))
        if let equals = name.firstIndex(of: "=") {
          inlineValue = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
        }
      } else {
        guard argument.count == 2, let long = spec.aliases[argument.last!] else {
          throw UsageError("unknown option '\(argument)'")
        }
        name = long
      }
      if spec.flags.contains(name) {
        guard inlineValue == nil else { throw UsageError("'--\(name)' takes no value") }
        flags.insert(name)
      } else if spec.options.contains(name) {
        if let inlineValue {
          values[name] = inlineValue
        } else {
          guard index < arguments.count else { throw UsageError("missing value for '--\(name)'") }
          let value = arguments[index]
          // `-o --every-sample`: the user left the value out, not a file named so.
          if spec.names(value) {
            throw UsageError(
              "missing value for '--\(name)' ('\(value)' is an option; "
                + "write --\(name)=\(value) if that is the value)")
          }
          values[name] = value
          index += 1
        }
      } else {
        var message = "unknown option '--\(name)'"
        if let near = EditDistance.suggestion(
          for: name, among: spec.options.union(spec.flags).union(spec.answeredElsewhere))
        {
          message += "; did you mean '--\(near)'?"
        }
        throw UsageError(message)
      }
    }
  }

  func has(_ flag: String) -> Bool { flags.contains(flag) }

  func string(_ name: String) -> String? { values[name] }

  /// The value of `--name` as a finite number within `range`.
  func number(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
    guard let text = values[name] else { return nil }
    guard let value = Double(text), value.isFinite else {
      throw UsageError("'--\(name)' needs a number, not '\(text)'")
    }
    guard range.contains(value) else {
      throw UsageError(
        "'--\(name)' must be between \(range.lowerBound.compact) and \(range.upperBound.compact), not \(text)"
      )
    }
    return value
  }

  /// The value of `--name` as one of `choices`.
  func choice<T: RawRepresentable & CaseIterable>(_ name: String, as: T.Type) throws(UsageError)
    -> T?
  where T.RawValue == String {
    guard let text = values[name] else { return nil }
    guard let value = T(rawValue: text) else {
      let names = T.allCases.map(\.rawValue).joined(separator: ", ")
      throw UsageError("'--\(name)' must be one of \(names), not '\(text)'")
    }
    return value
  }
}

extension Double {
  /// The number without a trailing `.0`: `60`, `0.5`.
  var compact: String {
    self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
  }
}
