import CommandLineOptions
import Testing

/// Options are read back through the keys they were declared with, typed.
@Suite struct TypedReaderTests {
  typealias Keys = Fixture.Paint.Keys

  @Test func aValueIsReadAsItsType() throws {
    let parsed = try Fixture.Paint.parse(["-c", "green", "--coats=2", "wall"])
    #expect(try parsed[Keys.color] == .green)
    #expect(try parsed[Keys.coats] == 2)
    #expect(parsed.positionals == ["wall"])
  }

  @Test func aRepeatableOptionIsReadAsEveryValueInOrder() throws {
    let parsed = try Fixture.Paint.parse(["--layer", "a", "--layer=b", "--layer", "c"])
    #expect(parsed[Keys.layer] == ["a", "b", "c"])
  }

  @Test func aFlagIsReadAsWhetherItWasGiven() throws {
    #expect(try Fixture.Root.parse(["--version"])[Fixture.Root.Keys.version])
    #expect(try !Fixture.Root.parse([])[Fixture.Root.Keys.version])
  }

  @Test func anAbsentOptionIsNilOrEmpty() throws {
    let parsed = try Fixture.Paint.parse([])
    #expect(try parsed[Keys.color] == nil)
    #expect(try parsed[Keys.coats] == nil)
    #expect(parsed[Keys.layer].isEmpty)
    #expect(!parsed.isGiven(Keys.color))
    // A key the command does not declare is never given to it.
    #expect(!parsed[Fixture.Root.Keys.version])
  }

  @Test func isGivenAnswersForEveryKind() throws {
    let parsed = try Fixture.Paint.parse(["--coats", "1", "--layer", "x"])
    #expect(parsed.isGiven(Keys.coats))
    #expect(parsed.isGiven(Keys.layer))
    #expect(!parsed.isGiven(Keys.color))
    #expect(try Fixture.Root.parse(["--version"]).isGiven(Fixture.Root.Keys.version))
  }

  /// A key made by `parsed` checks its values with its own parser while
  /// parsing, and reads back what that parser made of the text.
  @Test func aParsedOptionIsCheckedAndConvertedByOneFunction() throws {
    let size = Option<(Int, Int)>.parsed("size", "WxH", help: "A size.") {
      text throws(UsageError) in
      let parts = text.split(separator: "x").compactMap { Int($0) }
      guard parts.count == 2 else { throw UsageError("'--size' needs WxH, not '\(text)'") }
      return (parts[0], parts[1])
    }
    let parsed = try CommandLineArguments(
      ["--size", "3x4"], options: [size.declaration], maxPositionals: 0)
    let value = try #require(try parsed[size])
    #expect(value.0 == 3 && value.1 == 4)
    #expect {
      try CommandLineArguments(["--size", "3"], options: [size.declaration], maxPositionals: 0)
    } throws: { error in
      "\(error)" == "'--size' needs WxH, not '3'"
    }
  }

  /// What a command reads is recorded: a declared option it never reads shows.
  @Test func theArgumentsKnowWhichDeclaredOptionsWereNotRead() throws {
    let parsed = try Fixture.Paint.parse(["--layer", "a"])
    #expect(parsed.unread.map(\.name) == ["color", "coats", "layer"])
    _ = try parsed[Keys.color]
    _ = parsed[Keys.layer]
    #expect(parsed.unread.map(\.name) == ["coats"])
    _ = parsed.isGiven(Keys.coats)
    #expect(parsed.unread.isEmpty)
  }

  @Test func aKeysDescriptionCanChangeButNotItsName() {
    let key = Keys.coats.describing("Coats of varnish.")
    #expect(key.declaration.name == "coats")
    #expect(key.declaration.help == "Coats of varnish.")
    #expect(key.declaration.label == "--coats N")
  }
}
