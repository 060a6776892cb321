import Foundation
import TestTools
import Testing

/// What a person sees: the terminal view under tmux, the HTML page in Chromium.
@Suite struct ViewTests {
  @Test(.needs(.tmux)) func terminalViewDrawsTheCardAndQuitsCleanly() throws {
    let tmux = try Tool.tmux.require()
    let socket = "tilt-view-\(getpid())"
    let status = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).status")
    try? FileManager.default.removeItem(at: status)
    func tm(_ args: [String]) throws -> TiltCLI.Result {
      try TiltCLI.runTool(tmux, ["-L", socket] + args)
    }
    defer { _ = try? tm(["kill-server"]) }
    let command =
      "cd '\(TiltCLI.packageRoot.path)' && '\(TiltCLI.binary.path)' replay recordings/demo.evemu "
      + "--format tty --speed 0.5 2>'\(status.path).err'; echo $? > '\(status.path)'; sleep 5"
    // Not through TiltCLI.run: the tmux server it forks would hold the pipes
    // open, and reading them to the end would wait for the server to exit.
    let client = Process()
    client.executableURL = URL(fileURLWithPath: tmux)
    client.arguments = [
      "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "32", command,
    ]
    client.standardInput = FileHandle.nullDevice
    client.standardOutput = FileHandle.nullDevice
    client.standardError = FileHandle.nullDevice
    try client.run()
    defer { withExtendedLifetime(client) {} }
    var screen = ""
    for _ in 0..<50 {
      Thread.sleep(forTimeInterval: 0.2)
      let capture = try tm(["capture-pane", "-p"])
      screen = capture.stdout.isEmpty ? capture.stderr : capture.stdout
      if screen.contains("FRONT") { break }
    }
    let err =
      (try? String(contentsOf: URL(fileURLWithPath: status.path + ".err"), encoding: .utf8)) ?? ""
    #expect(screen.contains("FRONT"), "the card's front face is drawn:\n\(screen)\n\(err)")
    #expect(screen.contains("pitch") && screen.contains("roll"), "\(screen)")
    #expect(screen.contains("q quit"), "the keys are shown:\n\(screen)")
    #expect(screen.contains("█") || screen.contains("▀") || screen.contains("▄"))
    _ = try tm(["send-keys", "q"])
    var code: String?
    for _ in 0..<50 {
      Thread.sleep(forTimeInterval: 0.2)
      code = try? String(contentsOf: status, encoding: .utf8)
      if code != nil { break }
    }
    #expect(code?.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "q ends the view with 0")
    let after = try tm(["capture-pane", "-p"]).stdout
    #expect(!after.contains("FRONT"), "the terminal is restored (main screen back):\n\(after)")
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
