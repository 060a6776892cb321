import Foundation
import Testing

@testable import CommandLineOptions
@testable import tilt_cli

/// The option declarations are the one source of the parser and the help:
/// each command's help lists exactly what its parser accepts.
@Suite struct OptionDeclarationTests {
  /// Every command, plain `tilt-cli` first.
  static var commands: [any Command.Type] { [DefaultCommand.self] + CommandList.all }

  /// Values to try on an option whose validation is its own, until one passes.
  static let candidates = [
    "x", "0", "1", "max", "340x220", "127.0.0.1:0", "127.0.0.0/8", "26760", "a.evemu",
  ]

  /// The option names in a help's `OPTIONS:` section: `--output` and `-o`.
  static func listedOptions(_ help: String) -> Set<String> {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: "OPTIONS:") else { return [] }
    var names: Set<String> = []
    for line in lines[(start + 1)...] {
      if line.isEmpty { break }
      guard line.hasPrefix("  -") else { continue }
      // `-o, --output FILE`: the spellings are the words up to the value's.
      for word in line.split(separator: " ") {
        guard word.hasPrefix("-") else { break }
        names.insert(String(word.hasSuffix(",") ? word.dropLast() : word))
      }
    }
    return names
  }

  /// A value that `option` accepts, if the test can find one.
  static func example(for option: OptionDeclaration) -> String? {
    switch option.validation {
    case .number(let range): return range.lowerBound.compact
    case .choices(let words): return words.first
    case .any: return "x"
    case .custom: return candidates.first { (try? option.check($0)) != nil }
    }
  }

  @Test(arguments: commands.indices)
  func theHelpListsExactlyTheOptionsTheParserAccepts(index: Int) throws {
    let command = Self.commands[index]
    let listed = Self.listedOptions(command.helpText)
    var accepted: Set<String> = []
    for option in command.acceptedOptions {
      accepted.insert("--\(option.name)")
      if let short = option.short { accepted.insert("-\(short)") }
    }
    #expect(
      listed == accepted,
      "\(command.name): listed \(listed.subtracting(accepted)), not listed \(accepted.subtracting(listed))"
    )
    // Each listed spelling parses, with a value where it takes one.
    for option in command.acceptedOptions {
      let spellings = ["--\(option.name)"] + (option.short.map { ["-\($0)"] } ?? [])
      for spelling in spellings {
        var arguments = [spelling]
        if option.kind != .flag {
          let example = try #require(
            Self.example(for: option),
            "\(command.name) \(spelling): add a value it accepts to `candidates`")
          arguments.append(example)
        }
        let parsed = try command.parse(arguments)
        if option.kind == .flag {
          #expect(parsed.flags.contains(option.name), "\(command.name) \(arguments)")
        } else {
          #expect(parsed.values[option.name] == [arguments[1]], "\(command.name) \(arguments)")
        }
      }
    }
    #expect(throws: UsageError.self) { try command.parse(["--not-an-option"]) }
  }

  @Test func aRepeatedSingleValueIsAUsageErrorNamingIt() {
    #expect {
      try ReplayCommand.parse(["--rate", "30", "--rate", "60"])
    } throws: { error in
      "\(error)" == "'--rate' is given twice ('30' and '60'); give it once"
    }
  }

  @Test func helpIsAFlagLikeAnyOther() throws {
    #expect {
      try LiveCommand.parse(["-o", "-h"])
    } throws: { error in
      "\(error)".hasPrefix("missing value for '--output' ('-h' is an option")
    }
    let afterEnd = try InfoCommand.parse(["--", "-h"])
    #expect(afterEnd.positionals == ["-h"])
    #expect(!afterEnd[StandardOptions.help])
    // The help shows beside a value that would not pass.
    #expect(try ReplayCommand.parse(["--rate", "0", "--help"])[StandardOptions.help])
  }

  @Test func valuesAreValidatedByTheirDeclarations() {
    #expect {
      try InfoCommand.parse(["--measure", "61"])
    } throws: { error in
      "\(error)" == "'--measure' must be between 0 and 60, not 61"
    }
    #expect {
      try TuneCommand.parse(["--search", "random"])
    } throws: { error in
      "\(error)" == "'--search' must be one of grid, oneeuro, not 'random'"
    }
  }
}
