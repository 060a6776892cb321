import Foundation
import Testing

@Suite struct UsageTests {
  @Test func topLevelHelpListsEveryCommand() throws {
    let r = try TiltCLI.run(["--help"])
    #expect(r.status == 0)
    #expect(r.stdout.hasPrefix("OVERVIEW: "))
    for name in ["devices", "info", "live", "replay", "record", "tune"] {
      #expect(r.stdout.contains("\n  \(name) "), "help lists \(name)")
    }
    #expect(r.stderr.isEmpty)
  }

  @Test(arguments: ["devices", "info", "live", "replay", "record", "tune"])
  func commandHelpHasTheThreeSections(command: String) throws {
    let r = try TiltCLI.run([command, "--help"])
    #expect(r.status == 0)
    #expect(r.stdout.hasPrefix("OVERVIEW: "))
    #expect(r.stdout.contains("\nUSAGE: tilt-cli \(command)"))
    #expect(r.stdout.contains("\nOPTIONS:\n"))
    #expect(r.stderr.isEmpty)
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

  @Test func replayWithoutAFileIsAUsageError() throws {
    let r = try TiltCLI.run(["replay"])
    #expect(r.status == 64)
    #expect(r.stderr.hasPrefix("Error: missing FILE"))
  }
}
