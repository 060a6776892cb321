import Evdev
import Foundation
import TestTools
import Testing

/// Issue 14's first hour in the terminal view, through the built binary on a
/// pseudo-terminal: colours as the terminal allows, and plain `tilt-cli`
/// saying in the view that it plays the demo, and why.
@Suite struct FirstHourViewTests {
  /// The parameters of every SGR sequence (`ESC [ … m`) in `text`, in one pass.
  static func sgr(_ text: String) -> Set<String> {
    TerminalText.sgrParameters(in: text)
  }

  static let replay = ["replay", "recordings/demo.evemu", "--format", "tty", "--speed", "max"]

  @Test(.needs(.script)) func noColorMeansNoColourEscapes() throws {
    let r = try TiltCLI.runOnTerminal(
      Self.replay,
      environment: ["NO_COLOR": "1", "TERM": "xterm-256color", "COLORTERM": "truecolor"])
    #expect(r.status == 0, "\(r.stdout.suffix(300))")
    #expect(r.stdout.contains("Membership") && r.stdout.contains("█"), "the card is drawn")
    // The terminal's own reset on leaving the view is no colour.
    #expect(Self.sgr(r.stdout).subtracting(["0"]).isEmpty, "\(Self.sgr(r.stdout))")
  }

  /// The Linux console: its 16 colours (the 8 and their bright variants)
  /// and only the block characters its fonts have (half blocks, no quadrants).
  @Test(.needs(.script)) func linuxConsoleGetsTheSixteenColoursAndHalfBlocks() throws {
    let r = try TiltCLI.runOnTerminal(Self.replay, environment: ["TERM": "linux"])
    #expect(r.status == 0, "\(r.stdout.suffix(300))")
    let codes = Self.sgr(r.stdout)
    #expect(codes.contains("34") || codes.contains("44"), "the blue front: \(codes)")
    for code in codes {
      let n = Int(code) ?? -1
      let ok =
        [0, 1, 2, 22, 39, 49].contains(n) || (30...37).contains(n) || (40...47).contains(n)
        || (90...97).contains(n) || (100...107).contains(n)
      #expect(ok, "\(code)")
    }
    let quadrants = r.stdout.filter { "▘▝▖▗▛▜▙▟▞▚".contains($0) }
    #expect(quadrants.isEmpty, "no quadrants on the console: \(Set(quadrants))")
    #expect(r.stdout.contains("▀") || r.stdout.contains("▄"))
  }

  @Test(
    .needs(.script),
    arguments: [
      (["TERM": "xterm-256color"], "38;5;", "38;2;"),
      (["TERM": "xterm-256color", "COLORTERM": "truecolor"], "38;2;", "38;5;"),
    ])
  func colourDepthFollowsTheTerminal(environment: [String: String], has: String, hasNot: String)
    throws
  {
    let r = try TiltCLI.runOnTerminal(Self.replay, environment: environment)
    #expect(r.status == 0)
    #expect(r.stdout.contains("\u{1B}[\(has)"))
    #expect(!r.stdout.contains("\u{1B}[\(hasNot)"))
  }

  /// The notice is in the view, not only printed before the screen hides it.
  @Test(.needs(.script)) func plainTiltCLISaysInTheViewThatItPlaysTheDemo() throws {
    let started = Date()
    let r = try TiltCLI.runOnTerminal([], environment: ["TERM": "xterm-256color"])
    // What it printed and how long it took, for a failure seen once under load.
    let seen =
      "after \(Int(Date().timeIntervalSince(started))) s, \(r.stdout.utf8.count) bytes, ending "
      + String(reflecting: String(r.stdout.suffix(400)))
    #expect(r.status == 0, "\(seen)")
    let view = try #require(r.stdout.range(of: "\u{1B}[?1049h"), "the view was entered: \(seen)")
    let before = r.stdout[..<view.lowerBound]
    let inView = r.stdout[view.upperBound...]
    #expect(
      before.contains("no motion device found (see 'tilt-cli devices'); playing the bundled demo."))
    #expect(
      inView.contains(
        "\u{1B}[H\u{1B}[1m  Demo: the bundled recording (no motion device found; see 'tilt-cli devices')"
      ),
      "the heading is the first line of every frame: \(seen)")
  }

  /// Event nodes the user may not read: named, with the fix, then the demo.
  @Test(
    .needs(.setpriv),
    .enabled(if: getuid() == 0, "needs root, to run tilt-cli as nobody (setpriv)"))
  func unreadableDevicesAreNamedWithTheFix() throws {
    // nobody runs a copy in a folder it can enter: the build may be in one
    // only its owner can (a clone in root's mode-700 home).
    let dir = try TestTools.folderForAnotherUser(named: "tilt-unreadable")
    defer { try? FileManager.default.removeItem(at: dir) }
    let binary = try TestTools.copyForAnotherUser(
      TiltCLI.binary, into: try TestTools.folderForAnotherUser(named: "tilt-unreadable-bin"))
    defer { try? FileManager.default.removeItem(at: binary.deletingLastPathComponent()) }
    for node in ["event3", "event12"] {
      let path = dir.appendingPathComponent(node).path
      _ = FileManager.default.createFile(atPath: path, contents: Data())
      chmod(path, 0o000)
    }
    chmod(dir.path, 0o755)
    let r = try TiltCLI.runTool(
      try Tool.setpriv.require(),
      [
        "--reuid=65534", "--regid=65534", "--clear-groups", "env", "TILT_INPUT_DIR=\(dir.path)",
        binary.path, "--format", "jsonl",
      ])
    #expect(r.status == 0, "the demo plays: \(r.stderr)")
    #expect(
      r.stderr
        == "tilt-cli: cannot read the input devices \(dir.path)/event3, \(dir.path)/event12: "
        + "permission denied. To use them, \(DeviceError.permissionFix). Playing the bundled demo.\n"
        + "tilt-cli: the demo ended. With a motion device attached, 'tilt-cli' follows it live; "
        + "'tilt-cli replay FILE' plays a recording.\n")
    #expect(!r.stderr.contains("no motion device found"))
    #expect(r.stdout.hasPrefix("{\"t\":0.000000,"), "then the demo's frames")
  }
}
