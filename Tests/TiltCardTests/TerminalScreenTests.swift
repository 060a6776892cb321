import Foundation
import TestTools
import Testing

@testable import TiltCard

/// The renderer's escape sequences as a real terminal emulator (tmux) reads
/// them: the screen holds the title, the numbers and the keys where expected.
@Suite struct TerminalScreenTests {
  typealias S = TestSupport

  @Test(.needs(.tmux)) func tmuxShowsTheRenderedScreen() throws {
    let tmux = try Tool.tmux.require()
    let motion = S.motion(at: 2, pitch: 0.1, roll: 0.2)
    let config = CardConfiguration()
    let frame = CardFrame(
      t: 2, motion: motion, pose: CardPose(attitude: motion.attitude, configuration: config),
      flipAngle: 180, flipped: true, state: .active, configuration: config)
    let screen = TerminalRenderer(configuration: config).render(frame, columns: 80, rows: 24)
    let dir = FileManager.default.temporaryDirectory
    let file = dir.appendingPathComponent("tiltcard-screen-\(getpid()).txt")
    try screen.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let session = "tiltcard-test-\(getpid())"
    let socket = dir.appendingPathComponent("tiltcard-tmux-\(getpid())").path
    let base = ["-S", socket, "-f", "/dev/null"]
    // Started, not waited for: Foundation's Process would wait for the tmux
    // server it forks too. Signals may be blocked in a test process, and
    // children inherit that, so the pane ends by itself: `read` returns on
    // the Enter sent at the end (or after 20 s), and tmux exits with it.
    let client = Process()
    client.executableURL = URL(fileURLWithPath: tmux)
    client.arguments =
      base + [
        "new-session", "-d", "-s", session, "-x", "80", "-y", "24",
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
    let rows = captured.components(separatedBy: "\n")
    #expect(rows.contains { $0.contains("BACK") }, "\(captured)")
    try #require(rows.count >= 24, "\(captured)")
    #expect(rows[22].hasPrefix("pitch +5.7°  roll +11.5°  flip 180°  back"), "\(captured)")
    #expect(rows[23].hasPrefix(TerminalKey.helpLine))
    #expect(rows[5].contains("▀") || rows[5].contains("▄"))
  }
}
