import Testing

/// The card's options are checked by one rule, TiltCard's
/// `CardConfiguration.validated()` and `maxTiltRange`, which the CLI uses.
@Suite struct CardOptionTests {
  /// contract §3.5: `--max-tilt` takes 0 to 90 degrees, both included.
  @Test(arguments: ["0", "90"])
  func maxTiltTakesTheEndsOfItsRange(value: String) throws {
    let r = try TiltCLI.run([
      "replay", "recordings/roll-pitch.csv", "--speed", "max", "--format", "jsonl",
      "--max-tilt", value,
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(!r.stdout.isEmpty)
  }

  @Test(arguments: ["-1", "90.5", "91"])
  func maxTiltOutsideItsRangeIsAUsageError(value: String) throws {
    let r = try TiltCLI.run(["replay", "recordings/roll-pitch.csv", "--max-tilt", value])
    #expect(r.status == 64)
    #expect(r.stderr.contains("--max-tilt") && r.stderr.contains("90"), "\(r.stderr)")
  }

  /// Each side of `--card-size` is 1 to 10000 points, as the library's check
  /// says (before, the CLI took any positive size, 0.5x220 too).
  @Test func aCardSideUnderOnePointIsAUsageError() throws {
    let r = try TiltCLI.run([
      "replay", "recordings/roll-pitch.csv", "--format", "jsonl", "--card-size", "0.5x220",
    ])
    #expect(r.status == 64, "\(r.stderr)")
    #expect(r.stderr.contains("'--card-size' needs WIDTHxHEIGHT"), "\(r.stderr)")
  }

  @Test func theHelpGivesTheRange() throws {
    let r = try TiltCLI.run(["replay", "--help"])
    #expect(r.stdout.contains("0 to 90 degrees"))
  }
}
