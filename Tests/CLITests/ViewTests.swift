import Foundation
import TestTools
import Testing

/// What a person sees: the terminal view under tmux, the HTML page in Chromium.
@Suite struct ViewTests {
  @Test(.needs(.tmux)) func terminalViewDrawsTheCardAndQuitsCleanly() throws {
    let terminal = try TmuxTerminal(
      running: "replay recordings/demo.evemu --format tty --speed 0.5", name: "view")
    defer { terminal.close() }
    let screen = try terminal.waitForScreen { $0.contains("FRONT") }
    #expect(
      screen.contains("FRONT"), "the card's front face is drawn:\n\(screen)\n\(terminal.stderr)")
    #expect(screen.contains("pitch") && screen.contains("roll"), "\(screen)")
    #expect(screen.contains("q quit"), "the keys are shown:\n\(screen)")
    #expect(screen.contains("█") || screen.contains("▀") || screen.contains("▄"))
    try terminal.send("q")
    #expect(terminal.waitForExitStatus() == "0", "q ends the view with 0")
    let after = try terminal.screen()
    #expect(!after.contains("FRONT"), "the terminal is restored (main screen back):\n\(after)")
  }

  /// `replay --serve` on a terminal waits for the page, and the keys work
  /// while it waits: `q` ends it (it once took Ctrl-C).
  @Test(.needs(.tmux)) func aServedReplayWaitingForThePageQuitsOnQ() throws {
    let terminal = try TmuxTerminal(
      running: "replay recordings/demo.evemu --serve 127.0.0.1:0", name: "serve")
    defer { terminal.close() }
    _ = try terminal.waitForScreen { _ in terminal.stderr.contains("starts when the page is open") }
    #expect(terminal.stderr.contains("serving http://127.0.0.1:"), "\(terminal.stderr)")
    try terminal.send("q")
    #expect(terminal.waitForExitStatus() == "0", "q ends the wait with 0")
  }

  @Test(.needs(.chromium)) func htmlPageShowsFrontThenBackNeverMirrored() throws {
    _ = try Tool.chromium.require()
    let page = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-demo-\(getpid()).html")
    defer { try? FileManager.default.removeItem(at: page) }
    let html = try TiltCLI.run([
      "replay", "recordings/demo.evemu", "--speed", "max", "--format", "html", "-o", page.path,
    ])
    #expect(html.status == 0, "\(html.stderr)")
    let jsonl = try TiltCLI.run([
      "replay", "recordings/demo.evemu", "--speed", "max", "--format", "jsonl",
    ])
    let frames = try Frames(jsonl.stdout).items
    guard let firstBack = frames.firstIndex(where: { $0.face == "back" }), firstBack > 0 else {
      Issue.record("the demo never shows the back")
      return
    }
    let before = frames[firstBack - 1].t
    let settled = frames[firstBack...].first { $0.flipAngle > 179 }?.t ?? frames[firstBack].t
    let script = TiltCLI.packageRoot.appendingPathComponent("Tests/browser/check-html").path
    let check = try TiltCLI.runTool(
      "/bin/bash", [script, page.path, String(before - 0.3), String(settled + 0.05)])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
  }
}

/// tilt-cli in a detached tmux session of its own: the screen a person sees.
private struct TmuxTerminal {
  let tmux: String
  let socket: String
  let status: URL
  private let client: Process

  init(running arguments: String, name: String) throws {
    tmux = try Tool.tmux.require()
    socket = "tilt-\(name)-\(getpid())"
    status = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).status")
    try? FileManager.default.removeItem(at: status)
    let command =
      "cd '\(TiltCLI.packageRoot.path)' && '\(TiltCLI.binary.path)' \(arguments) "
      + "2>'\(status.path).err'; echo $? > '\(status.path)'; sleep 5"
    // Not through TiltCLI.run: the tmux server it forks would hold the pipes
    // open, and reading them to the end would wait for the server to exit.
    client = Process()
    client.executableURL = URL(fileURLWithPath: tmux)
    client.arguments = [
      "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "32", command,
    ]
    client.standardInput = FileHandle.nullDevice
    client.standardOutput = FileHandle.nullDevice
    client.standardError = FileHandle.nullDevice
    try client.run()
  }

  private func tm(_ args: [String]) throws -> TiltCLI.Result {
    try TiltCLI.runTool(tmux, ["-L", socket] + args)
  }

  func screen() throws -> String {
    let capture = try tm(["capture-pane", "-p"])
    return capture.stdout.isEmpty ? capture.stderr : capture.stdout
  }

  /// The screen once `done` says so, or after 10 s.
  func waitForScreen(_ done: (String) -> Bool) throws -> String {
    var text = ""
    for _ in 0..<50 {
      Thread.sleep(forTimeInterval: 0.2)
      text = try screen()
      if done(text) { break }
    }
    return text
  }

  func send(_ keys: String) throws { _ = try tm(["send-keys", keys]) }

  /// tilt-cli's exit status, once it has exited (nil after 10 s).
  func waitForExitStatus() -> String? {
    for _ in 0..<50 {
      Thread.sleep(forTimeInterval: 0.2)
      if let code = try? String(contentsOf: status, encoding: .utf8) {
        return code.trimmingCharacters(in: .whitespacesAndNewlines)
      }
    }
    return nil
  }

  /// What tilt-cli wrote to stderr so far.
  var stderr: String {
    (try? String(contentsOf: URL(fileURLWithPath: status.path + ".err"), encoding: .utf8)) ?? ""
  }

  func close() {
    _ = try? tm(["kill-server"])
    withExtendedLifetime(client) {}
  }
}
