import Foundation
import TestTools
import Testing

@testable import TiltCard

/// The renderer's escape sequences as a real terminal emulator (tmux) reads
/// them, at 80 × 24, 120 × 40 and 40 × 12, in 24-bit and 256 colours: the
/// face's text where expected, the status and the keys on their rows, the
/// colours as sent.
@Suite struct TerminalScreenTests {
  typealias S = TestSupport

  static let cases: [(Int, Int, TerminalRenderer.ColorMode, Double)] = [
    (80, 24, .trueColor, 180), (80, 24, .palette256, 0), (120, 40, .trueColor, 0),
    (120, 40, .palette256, 180), (40, 12, .trueColor, 180), (40, 12, .palette256, 0),
  ]

  @Test(.needs(.tmux), arguments: cases)
  func tmuxShowsTheRenderedScreen(
    columns: Int, rows: Int, mode: TerminalRenderer.ColorMode, flip: Double
  ) throws {
    let tmux = try Tool.tmux.require()
    let motion = S.motion(at: 2, pitch: 0.1, roll: 0.2)
    let config = CardConfiguration()
    let frame = CardFrame(
      t: 2, motion: motion, pose: CardPose(attitude: motion.attitude, configuration: config),
      flipAngle: flip, flipped: flip > 90, state: .active, configuration: config)
    let renderer = TerminalRenderer(
      configuration: config, colorMode: mode, heading: "recordings/demo.evemu", showsTime: true,
      duration: 12)
    let screen = renderer.render(frame, columns: columns, rows: rows)
    let dir = FileManager.default.temporaryDirectory
    let tag = "\(getpid())-\(columns)x\(rows)-\(flip)-\(mode == .trueColor ? "24" : "256")"
    let file = dir.appendingPathComponent("tiltcard-screen-\(tag).txt")
    try screen.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let session = "tiltcard-test"
    let socket = dir.appendingPathComponent("tiltcard-tmux-\(tag)").path
    let base = ["-S", socket, "-f", "/dev/null"]
    // Started, not waited for: Foundation's Process would wait for the tmux
    // server it forks too. Signals may be blocked in a test process, and
    // children inherit that, so the pane ends by itself: `read` returns on
    // the Enter sent at the end (or after 20 s), and tmux exits with it.
    let client = Process()
    client.executableURL = URL(fileURLWithPath: tmux)
    client.arguments =
      base + [
        "new-session", "-d", "-s", session, "-x", "\(columns)", "-y", "\(rows)",
        "printf '\\033[?25l'; cat '\(file.path)'; read -t 20 line",
      ]
    client.standardInput = FileHandle.nullDevice
    client.standardOutput = FileHandle.nullDevice
    client.standardError = FileHandle.nullDevice
    try client.run()
    defer { _ = try? S.run(tmux, base + ["send-keys", "-t", session, "Enter"], capture: false) }
    var captured = ""
    for _ in 0..<50 {
      usleep(100_000)
      captured = try S.run(tmux, base + ["capture-pane", "-p", "-t", session]).output
      if captured.contains("q quit") { break }
    }
    let colored = try S.run(tmux, base + ["capture-pane", "-p", "-e", "-t", session]).output
    let lines = captured.components(separatedBy: "\n")
    try #require(lines.count >= rows, "\(captured)")
    let title = flip == 0 ? "Membership" : "No. 2026 0042"
    #expect(lines.contains { $0.contains(title) }, "\(captured)")
    #expect(lines[0].contains("recordings/demo.evemu") && lines[0].contains("2.0 / 12.0 s"))
    #expect(lines[rows - 2].contains("pitch  +5.7°"), "\(captured)")
    #expect(lines[rows - 2].contains("roll  +11.5°"), "\(captured)")
    #expect(lines[rows - 1].contains("q quit"))
    #expect(lines.contains { $0.contains("▀") || $0.contains("▄") })
    #expect(colored.contains(mode == .trueColor ? "48;2;" : "48;5;"), "the colours as sent")
  }
}
