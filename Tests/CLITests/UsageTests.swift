import Foundation
import TestTools
import Testing

@Suite struct UsageTests {
  @Test func topLevelHelpListsEveryCommand() throws {
    let r = try TiltCLI.run(["--help"])
    #expect(r.status == 0)
    #expect(r.stdout.hasPrefix("OVERVIEW: "))
    for name in [
      "devices", "info", "live", "replay", "record", "tune", "calibrate", "service", "completions",
      "manpage",
    ] {
      #expect(r.stdout.contains("\n  \(name) "), "help lists \(name)")
    }
    #expect(r.stderr.isEmpty)
  }

  @Test(arguments: [
    "devices", "info", "live", "replay", "record", "tune", "calibrate", "service", "completions",
    "manpage",
  ])
  func commandHelpHasTheThreeSections(command: String) throws {
    let r = try TiltCLI.run([command, "--help"])
    #expect(r.status == 0)
    #expect(r.stdout.hasPrefix("OVERVIEW: "))
    #expect(r.stdout.contains("\nUSAGE: tilt-cli \(command)"))
    #expect(r.stdout.contains("\nOPTIONS:\n"))
    #expect(r.stderr.isEmpty)
  }

  /// `tilt-cli help [COMMAND]` is `--help` (contract §3.1): the same bytes and status.
  @Test(arguments: [
    [], ["devices"], ["info"], ["live"], ["replay"], ["record"], ["tune"], ["calibrate"],
    ["completions"], ["manpage"],
  ])
  func helpCommandIsTheSameAsHelpOption(command: [String]) throws {
    let viaHelp = try TiltCLI.run(["help"] + command)
    let viaOption = try TiltCLI.run(command + ["--help"])
    #expect(viaHelp.status == 0)
    #expect(viaHelp.stdout.hasPrefix("OVERVIEW: "))
    #expect(viaHelp.stdout == viaOption.stdout)
    #expect(viaHelp.stderr.isEmpty)
  }

  @Test func helpForAnUnknownCommandSuggestsOne() throws {
    let r = try TiltCLI.run(["help", "replya"])
    #expect(r.status == 64)
    #expect(
      r.stderr
        == "Error: unknown command 'replya'; did you mean 'replay'?\nUsage: tilt-cli [<command>] [options]\n  See 'tilt-cli --help'.\n"
    )
    #expect(r.stdout.isEmpty)
  }

  @Test func unknownCommandIsAUsageError() throws {
    let r = try TiltCLI.run(["wobble"])
    #expect(r.status == 64)
    #expect(
      r.stderr
        == "Error: unknown command 'wobble'\nUsage: tilt-cli [<command>] [options]\n  See 'tilt-cli --help'.\n"
    )
    #expect(r.stdout.isEmpty)
  }

  @Test func unknownOptionNamesItAndTheCommandHelp() throws {
    let r = try TiltCLI.run(["replay", "x.evemu", "--wobble"])
    #expect(r.status == 64)
    #expect(r.stderr.hasPrefix("Error: unknown option '--wobble'\nUsage: tilt-cli replay FILE"))
    #expect(r.stderr.hasSuffix("  See 'tilt-cli replay --help'.\n"))
  }

  @Test(arguments: [
    (["--rate", "abc"], "'--rate' needs a number, not 'abc'"),
    (["--rate", "0"], "'--rate' must be between 1 and 1000, not 0"),
    (["--filter", "kalman"], "'--filter' must be one of none, lowpass, oneeuro, not 'kalman'"),
    (
      ["--card-size", "340"], "'--card-size' needs WIDTHxHEIGHT in points, like 340x220, not '340'"
    ),
    (["--tau"], "missing value for '--tau'"),
    (["--speed", "fast"], "'--speed' needs a positive number or 'max', not 'fast'"),
  ])
  func badOptionValuesAreUsageErrors(arguments: [String], message: String) throws {
    let r = try TiltCLI.run(["replay", "recordings/demo.evemu"] + arguments)
    #expect(r.status == 64)
    #expect(r.stderr.hasPrefix("Error: \(message)\n"), "\(r.stderr)")
  }

  /// `-o --every-sample` left the file out: it is no file named `--every-sample`.
  @Test(arguments: [
    ["-o", "--every-sample"], ["--output", "--speed", "max"], ["--speed", "--every-sample"],
    ["-o", "-o"],
  ])
  func anOptionWhereAValueBelongsIsAMissingValue(arguments: [String]) throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-usage-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let demo = TiltCLI.packageRoot.appendingPathComponent("recordings/demo.evemu").path
    let r = try TiltCLI.run(["replay", demo] + arguments, in: dir)
    let option = arguments[0] == "-o" ? "--output" : arguments[0]
    #expect(r.status == 64)
    #expect(
      r.stderr.hasPrefix("Error: missing value for '\(option)' ('\(arguments[1])' is an option;"),
      "\(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  @Test func aNegativeNumberIsAValueNotAnOption() throws {
    let r = try TiltCLI.run([
      "replay", "recordings/demo.evemu", "--gain", "-5", "--speed", "max", "-o", "/dev/null",
    ])
    #expect(r.status == 0, "\(r.stderr)")
  }

  @Test(arguments: [
    (["--versio"], "unknown option '--versio'; did you mean '--version'?"),
    (["replay", "x.evemu", "--hepl"], "unknown option '--hepl'; did you mean '--help'?"),
  ])
  func helpAndVersionAreSuggestedToo(arguments: [String], message: String) throws {
    let r = try TiltCLI.run(arguments)
    #expect(r.status == 64)
    #expect(r.stderr.hasPrefix("Error: \(message)\n"), "\(r.stderr)")
  }

  /// `-h` is a flag like any other: where a value belongs it is a missing
  /// value, and after `--` it is an argument.
  @Test func helpWhereAValueBelongsIsAMissingValue() throws {
    let r = try TiltCLI.run(["live", "-o", "-h"])
    #expect(r.status == 64)
    #expect(
      r.stderr.hasPrefix(
        "Error: missing value for '--output' ('-h' is an option; write --output=-h if that is the value)\n"
      ), "\(r.stderr)")
    #expect(r.stdout.isEmpty)
  }

  @Test func helpAfterTheEndOfOptionsIsAnArgument() throws {
    let r = try TiltCLI.run(["info", "--", "-h"])
    #expect(r.status == 1, "\(r.stderr)")
    #expect(r.stderr.hasPrefix("tilt-cli info: -h: "), "\(r.stderr)")
    #expect(!r.stdout.contains("OVERVIEW"))
  }

  @Test func helpAfterOtherOptionsShowsTheHelp() throws {
    let r = try TiltCLI.run(["replay", "--rate", "0", "x.evemu", "--help"])
    #expect(r.status == 0)
    #expect(r.stdout == (try TiltCLI.run(["replay", "--help"])).stdout)
  }

  @Test(arguments: [
    (["replay", "recordings/demo.evemu", "--rate", "30", "--rate", "60"], "--rate", "30", "60"),
    (["live", "-o", "a.jsonl", "--output", "b.jsonl"], "--output", "a.jsonl", "b.jsonl"),
    (["info", "--measure=1", "--measure", "2", "x"], "--measure", "1", "2"),
  ])
  func aRepeatedSingleValuedOptionIsAUsageError(
    arguments: [String], option: String, first: String, second: String
  ) throws {
    let r = try TiltCLI.run(arguments)
    #expect(r.status == 64)
    #expect(
      r.stderr.hasPrefix(
        "Error: '\(option)' is given twice ('\(first)' and '\(second)'); give it once\n"),
      "\(r.stderr)")
    #expect(r.stdout.isEmpty)
  }

  @Test func replayWithoutAFileIsAUsageError() throws {
    let r = try TiltCLI.run(["replay"])
    #expect(r.status == 64)
    #expect(r.stderr.hasPrefix("Error: missing FILE"))
  }
}

/// Issue 14's first hour at the command line: the version, typos, options
/// that do not apply, and a page that would flood the terminal.
@Suite struct FirstHourUsageTests {
  @Test func versionIsOneLine() throws {
    let r = try TiltCLI.run(["--version"])
    #expect(r.status == 0)
    let version = r.stdout.dropFirst("tilt-cli ".count).dropLast()
    #expect(r.stdout.hasPrefix("tilt-cli ") && r.stdout.hasSuffix("\n"), "\(r.stdout)")
    #expect(version.split(separator: ".").count == 3, "\(r.stdout)")
    #expect(version.allSatisfy { $0.isNumber || $0 == "." }, "\(r.stdout)")
    #expect(r.stderr.isEmpty)
    #expect(try TiltCLI.run(["--help"]).stdout.contains("\n  --version "))
  }

  @Test(arguments: [
    ("replya", "replay"), ("devics", "devices"), ("lvie", "live"), ("tuen", "tune"),
    ("infp", "info"), ("recrod", "record"),
  ])
  func mistypedCommandSuggestsTheNearestOne(typed: String, meant: String) throws {
    let r = try TiltCLI.run([typed, "recordings/demo.evemu"])
    #expect(r.status == 64)
    #expect(
      r.stderr
        == "Error: unknown command '\(typed)'; did you mean '\(meant)'?\nUsage: tilt-cli [<command>] [options]\n  See 'tilt-cli --help'.\n"
    )
    #expect(r.stdout.isEmpty)
  }

  @Test func mistypedOptionSuggestsTheNearestOne() throws {
    let r = try TiltCLI.run(["replay", "recordings/demo.evemu", "--sped", "max"])
    #expect(r.status == 64)
    #expect(r.stderr.hasPrefix("Error: unknown option '--sped'; did you mean '--speed'?\n"))
  }

  /// Plain `tilt-cli` with a bad option: the top-level help, one space.
  @Test func defaultCommandErrorPointsAtTheTopLevelHelp() throws {
    let r = try TiltCLI.run(["--wobble"])
    #expect(r.status == 64)
    #expect(
      r.stderr
        == "Error: unknown option '--wobble'\nUsage: tilt-cli [<command>] [options]\n  See 'tilt-cli --help'.\n"
    )
  }

  @Test(arguments: [
    (
      ["--filter", "lowpass", "--beta", "3"],
      "'--beta' applies only with --filter oneeuro, not with --filter lowpass"
    ),
    (
      ["--filter", "none", "--min-cutoff", "1"],
      "'--min-cutoff' applies only with --filter oneeuro, not with --filter none"
    ),
    (
      ["--tau", "0.2"],
      "'--tau' applies only with --filter lowpass, not with --filter oneeuro (the default)"
    ),
    (
      ["--fusion", "accel", "--fusion-tau", "2"],
      "'--fusion-tau' applies only with --fusion auto or --fusion gyro, not with --fusion accel"
    ),
    (
      ["--flip-on", "none", "--flip-style", "two-phase"],
      "'--flip-style' applies only with --flip-on button or --flip-on turnover, not with --flip-on none"
    ),
  ])
  func optionsThatDoNotApplyAreUsageErrors(arguments: [String], message: String) throws {
    for command in [["replay", "recordings/demo.evemu", "--speed", "max"], ["live"], []] {
      let r = try TiltCLI.run(command + arguments)
      #expect(r.status == 64, "\(command + arguments)")
      #expect(r.stderr.hasPrefix("Error: \(message)\n"), "\(r.stderr)")
      #expect(r.stdout.isEmpty)
    }
  }

  @Test(arguments: [
    ["--filter", "lowpass", "--tau", "0.2"], ["--filter", "oneeuro", "--beta", "3"],
    ["--min-cutoff", "2"], ["--fusion", "gyro", "--fusion-tau", "2"],
    ["--flip-on", "turnover", "--flip-style", "two-phase"],
  ])
  func optionsThatApplyAreAccepted(arguments: [String]) throws {
    let r = try TiltCLI.run(
      ["replay", "recordings/demo.evemu", "--speed", "max", "--format", "jsonl"] + arguments)
    #expect(r.status == 0, "\(arguments): \(r.stderr)")
  }

  @Test(.needs(.script)) func htmlOnATerminalAsksForAFile() throws {
    let r = try TiltCLI.runOnTerminal([
      "replay", "recordings/demo.evemu", "--speed", "max", "--format", "html",
    ])
    #expect(r.status == 64)
    #expect(
      r.stdout.hasPrefix(
        "Error: '--format html' writes a whole page; to open it in a browser, write it to a file with -o FILE.html\n"
      ), "\(r.stdout.prefix(300))")
    #expect(!r.stdout.contains("<html"), "the page is not dumped on the terminal")
  }

  /// On a pipe the page is the output, as before.
  @Test func htmlOnAPipeIsThePage() throws {
    let r = try TiltCLI.run([
      "replay", "recordings/demo.evemu", "--speed", "max", "--format", "html",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("<html"))
  }
}
