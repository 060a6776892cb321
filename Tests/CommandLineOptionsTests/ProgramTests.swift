import CommandLineOptions
import Testing

/// A program picks its command, and turns errors into messages and statuses.
@Suite struct ProgramTests {
  @Test func theFirstArgumentPicksTheCommand() {
    let written = Fixture.Written()
    let program = Fixture.program(written)
    #expect(program.run(["paint", "wall"]) == 3)
    #expect(program.run([]) == ExitStatus.success)
    #expect(written.text.isEmpty)
  }

  @Test func anUnknownCommandIsAUsageErrorWithASuggestion() {
    let written = Fixture.Written()
    #expect(Fixture.program(written).run(["pain"]) == ExitStatus.usage)
    #expect(
      written.text
        == "Error: unknown command 'pain'; did you mean 'paint'?\n"
        + "Usage: paint-tool [<command>] [options]\n  See 'paint-tool --help'.\n")
  }

  @Test func aCommandsUsageErrorNamesItsHelp() {
    let written = Fixture.Written()
    #expect(Fixture.program(written).run(["paint", "--coats", "0"]) == ExitStatus.usage)
    #expect(
      written.text
        == "Error: '--coats' must be between 1 and 3, not 0\n"
        + "Usage: paint-tool paint [options] FILE\n  See 'paint-tool paint --help'.\n")
  }

  @Test func anyOtherErrorIsDescribedOnOneLine() {
    let written = Fixture.Written()
    #expect(Fixture.program(written).run(["paint", "missing"]) == ExitStatus.failure)
    #expect(written.text == "paint-tool paint: the file is missing\n")
  }

  @Test func helpTakesAtMostOneCommand() {
    let written = Fixture.Written()
    let program = Fixture.program(written)
    #expect(program.run(["help", "paint"]) == ExitStatus.success)
    #expect(program.run(["help", "paint", "paint"]) == ExitStatus.usage)
    #expect(written.text.hasPrefix("Error: help takes one command, not 2\n"))
  }
}
