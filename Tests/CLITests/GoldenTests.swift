import Foundation
import TestTools
import Testing

/// The exact bytes `tilt-cli replay FILE --speed max --format jsonl` prints for
/// the project's own recordings, pinned under `Tests/CLITests/Golden/`, so any
/// change of behaviour shows as a diff that its commit must explain. The shared
/// recording can't be copied in: its output is pinned by SHA-256.
///
/// To accept a deliberate change: `TILT_WRITE_GOLDEN=1 swift test --filter GoldenTests`.
@Suite struct GoldenTests {
  static let golden = TiltCLI.packageRoot.appendingPathComponent("Tests/CLITests/Golden")

  /// Recording → golden file.
  static let pinned = [
    "recordings/demo.evemu": "demo.jsonl",
    "recordings/roll-pitch.csv": "roll-pitch.jsonl",
    "recordings/joystick-sweep.evemu": "joystick-sweep.jsonl",
  ]

  /// `replay FILE --speed max --format jsonl`.
  static func replay(_ file: String) throws -> String {
    let r = try TiltCLI.run(["replay", file, "--speed", "max", "--format", "jsonl"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty)
    return r.stdout
  }

  @Test(arguments: pinned.keys.sorted())
  func replayPrintsTheGoldenBytes(file: String) throws {
    let output = try Self.replay(file)
    let url = Self.golden.appendingPathComponent(Self.pinned[file]!)
    if ProcessInfo.processInfo.environment["TILT_WRITE_GOLDEN"] == "1" {
      try Data(output.utf8).write(to: url)
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    guard output != expected else { return }
    let ours = output.split(separator: "\n", omittingEmptySubsequences: false)
    let theirs = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let first =
      (0..<min(ours.count, theirs.count)).first { ours[$0] != theirs[$0] }
      ?? min(ours.count, theirs.count)
    Issue.record(
      """
      \(file): the output differs from Golden/\(Self.pinned[file]!) at line \(first + 1) \
      (\(ours.count) lines now, \(theirs.count) pinned)
        now:    \(first < ours.count ? String(ours[first].prefix(200)) : "(end)")
        pinned: \(first < theirs.count ? String(theirs[first].prefix(200)) : "(end)")
      """)
  }

  static let broad02 = "../shared/data/broad/broad02_window36-56s_as_dualsense_motion.evemu"
  static let broad02SHA256 = "9ed05fdcd24798af999ea22dd9f53093d4a839553803a1f189e1acc2001bdbb7"

  @Test(.needsSharedData("broad/broad02_window36-56s_as_dualsense_motion.evemu"))
  func replayOfTheSharedDualSenseRecordingIsPinnedByItsHash() throws {
    let output = try Self.replay(Self.broad02)
    let hash = try TiltCLI.runTool("/usr/bin/sha256sum", ["-"], stdin: output)
    #expect(hash.stdout.prefix(64) == Self.broad02SHA256)
  }
}
