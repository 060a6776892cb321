import CommandLineOptions
import Testing

/// What the parser accepts and refuses, with the messages it gives.
@Suite struct ParserTests {
  @Test func aRepeatableOptionKeepsEveryValueInOrder() throws {
    let parsed = try Fixture.Paint.parse(["--layer", "a", "--layer=b", "--layer", "c", "x"])
    #expect(parsed[Fixture.Paint.Keys.layer] == ["a", "b", "c"])
    #expect(parsed.positionals == ["x"])
  }

  @Test func aSingleValuedOptionGivenTwiceIsAUsageError() {
    #expect {
      try Fixture.Paint.parse(["-c", "red", "--color", "green"])
    } throws: { error in
      "\(error)" == "'--color' is given twice ('red' and 'green'); give it once"
    }
  }

  @Test func valuesAreCheckedAgainstTheirDeclarations() {
    #expect {
      try Fixture.Paint.parse(["--coats", "4"])
    } throws: { error in
      "\(error)" == "'--coats' must be between 1 and 3, not 4"
    }
    #expect {
      try Fixture.Paint.parse(["--color", "blue"])
    } throws: { error in
      "\(error)" == "'--color' must be one of red, green, not 'blue'"
    }
  }

  @Test func helpIsAFlagAndEndsNoValue() throws {
    #expect {
      try Fixture.Paint.parse(["--layer", "-h"])
    } throws: { error in
      "\(error)".hasPrefix("missing value for '--layer' ('-h' is an option")
    }
    #expect(try Fixture.Paint.parse(["--", "-h"]).positionals == ["-h"])
    #expect(try Fixture.Paint.parse(["--coats", "9", "-h"])[StandardOptions.help])
  }

  @Test func aMistypedOptionGetsASuggestion() {
    #expect {
      try Fixture.Paint.parse(["--colour", "red"])
    } throws: { error in
      "\(error)" == "unknown option '--colour'; did you mean '--color'?"
    }
    #expect {
      try Fixture.Paint.parse(["a", "b"])
    } throws: { error in
      "\(error)" == "unexpected argument 'b'"
    }
  }

  @Test(arguments: [
    ("replya", "replay", 1), ("replay", "replay", 0), ("abc", "xyz", 3), ("", "ab", 2),
  ])
  func editDistanceCountsASwapAsOneStep(a: String, b: String, steps: Int) {
    #expect(EditDistance.between(a, b) == steps)
  }
}
