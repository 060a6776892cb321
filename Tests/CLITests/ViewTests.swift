import Foundation
import TestTools
import Testing

/// What a person sees: the terminal view under tmux, the HTML page in Chromium.
@Suite struct ViewTests {
  @Test(.needs(.tmux)) func terminalViewDrawsTheCardAndQuitsCleanly() throws {
    let terminal = try TmuxTerminal(
      running: "replay recordings/demo.evemu --format tty --speed 0.5", name: "view")
    defer { terminal.close() }
    let screen = try terminal.waitForScreen { $0.contains("Membership") }
    #expect(
      screen.contains("Membership"),
      "the card's front face is drawn:\n\(screen)\n\(terminal.stderr)")
    #expect(screen.contains("pitch") && screen.contains("roll"), "\(screen)")
    #expect(screen.contains("q quit"), "the keys are shown:\n\(screen)")
    #expect(screen.contains("█") || screen.contains("▀") || screen.contains("▄"))
    try terminal.send("q")
    #expect(terminal.waitForExitStatus() == "0", "q ends the view with 0")
    let after = try terminal.screen()
    #expect(!after.contains("Membership"), "the terminal is restored (main screen back):\n\(after)")
  }

  /// Issue 22: what a person sees at 80 × 24, 120 × 40 and 40 × 12, in 24-bit
  /// and 256 colours: the heading with the file and its time, the front's
  /// text, then after space the back's, never mirrored, every line whole;
  /// the card's corners round (its top row shorter than its middle).
  @Test(
    .needs(.tmux),
    arguments: [
      (80, 24, "truecolor"), (80, 24, "256"), (120, 40, "truecolor"), (120, 40, "256"),
      (40, 12, "truecolor"), (40, 12, "256"),
    ])
  func bothFacesAtEachSizeAndDepth(columns: Int, rows: Int, depth: String) throws {
    // Only the depth asked for: the test's own NO_COLOR or COLORTERM go.
    let colours =
      "-u NO_COLOR -u COLORTERM TERM=tmux-256color"
      + (depth == "truecolor" ? " COLORTERM=truecolor" : "")
    let terminal = try TmuxTerminal(
      running: "replay recordings/demo.evemu --format tty --speed 0.5",
      name: "faces-\(columns)-\(depth)",
      columns: columns, rows: rows, environment: colours)
    defer { terminal.close() }
    let front = try terminal.waitForScreen { $0.contains("Membership") }
    let lines = front.components(separatedBy: "\n")
    #expect(front.contains("Membership"), "the front:\n\(front)\n\(terminal.stderr)")
    #expect(
      lines.first?.contains("recordings/demo.evemu") == true,
      "the heading names the file:\n\(front)")
    #expect(lines.first?.contains(" / 12.0 s") == true, "the time and length:\n\(front)")
    if columns >= 80 {
      #expect(
        front.contains("T I L T") && front.contains("Tilt to move it · space to flip"), "\(front)")
    }
    let colored = try terminal.screen(escapes: true)
    #expect(Self.cornersAreRound(colored), "round corners:\n\(front)")
    #expect(colored.contains(depth == "truecolor" ? "48;2;" : "48;5;"), "the colour depth")
    #expect(!colored.contains(depth == "truecolor" ? "48;5;" : "48;2;"), "only that depth")
    try terminal.send("Space")
    // The back, once the flip has settled: the status says 180°, or at 40
    // columns, where it leaves the angle out, the corners are round again.
    // The coloured screen judged is the one the wait saw settled (the card
    // goes on tilting with the replay; a later capture may catch it mid-row).
    var settled: String?
    let back = try terminal.waitForScreen {
      guard $0.contains("No. 2026 0042") else { return false }
      if $0.contains("flip 180°") { return true }
      guard columns < 60 else { return false }
      settled = (try? terminal.screen(escapes: true)).flatMap {
        Self.cornersAreRound($0) ? $0 : nil
      }
      return settled != nil
    }
    #expect(back.contains("No. 2026 0042"), "the back after space:\n\(back)")
    #expect(back.contains("Valid to 12/2026") || columns < 80, "\(back)")
    #expect(!back.contains("2400 6202 .oN"), "never mirrored")
    let backColored = try settled ?? terminal.screen(escapes: true)
    #expect(Self.cornersAreRound(backColored), "round corners:\n\(back)")
    for line in back.components(separatedBy: "\n") {
      #expect(line.count <= columns)
    }
    try terminal.send("q")
    #expect(terminal.waitForExitStatus() == "0")
  }

  /// Whether the card in a `capture-pane -e` screen has round corners: in
  /// subpixels (each cell's 2 × 2, as its block character splits it between
  /// its two colours), the card's top and bottom rows (the face's violet or
  /// teal) are narrower than its middle row.
  static func cornersAreRound(_ colored: String) -> Bool {
    let glyphs = Array(" ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█")
    var spans: [(Int, Int)] = []
    for row in ScreenCells.parse(colored) {
      var top: [Int] = []
      var bottom: [Int] = []
      for (x, cell) in row.enumerated() {
        let mask = glyphs.firstIndex(of: cell.character) ?? 0
        for k in 0..<4 {
          let on = mask & (1 << k) != 0
          guard let color = on ? cell.foreground : cell.background, ScreenCells.isFace(color)
          else { continue }
          (k < 2 ? { top.append(2 * x + (k & 1)) } : { bottom.append(2 * x + (k & 1)) })()
        }
      }
      for line in [top, bottom] {
        if let first = line.min(), let last = line.max(), last - first > 4 {
          spans.append((first, last))
        }
      }
    }
    guard spans.count >= 6 else { return false }
    let middle = spans[spans.count / 2]
    let (first, last) = (spans[0], spans[spans.count - 1])
    // Tilted, one end of the top edge is higher than the other and the
    // rounding there may take less than a subpixel off one side: each end
    // row is not wider on either side and at least 2 subpixels narrower.
    func inside(_ a: (Int, Int)) -> Bool {
      a.0 >= middle.0 && a.1 <= middle.1 && (a.1 - a.0) <= (middle.1 - middle.0) - 2
    }
    return inside(first) && inside(last)
  }

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

/// The cells of a `tmux capture-pane -e` screen with the colours that show
/// in them (a half block shows its foreground and its background).
enum ScreenCells {
  struct Cell {
    var character: Character
    var foreground: (Int, Int, Int)?
    var background: (Int, Int, Int)?
  }

  static func rgb(index: Int) -> (Int, Int, Int) {
    if index >= 232 {
      let v = 8 + 10 * (index - 232)
      return (v, v, v)
    }
    guard index >= 16 else { return (0, 0, 0) }
    let levels = [0, 95, 135, 175, 215, 255]
    let n = index - 16
    return (levels[n / 36], levels[n / 6 % 6], levels[n % 6])
  }

  /// The face's colours: violet (blue well above green) or teal (green well above red).
  static func isFace(_ c: (Int, Int, Int)) -> Bool {
    (c.2 > c.1 + 60 && c.0 >= c.1) || (c.1 > c.0 + 60 && c.2 > c.0 + 40)
  }

  static func parse(_ text: String) -> [[Cell]] {
    var rows: [[Cell]] = []
    var fg: (Int, Int, Int)?
    var bg: (Int, Int, Int)?
    for line in text.components(separatedBy: "\n") {
      var row: [Cell] = []
      let scalars = Array(line.unicodeScalars)
      var i = 0
      while i < scalars.count {
        if scalars[i] == "\u{1B}" {
          var j = i + 2
          while j < scalars.count, !(0x40...0x7E).contains(scalars[j].value) { j += 1 }
          let p = String(String.UnicodeScalarView(scalars[min(i + 2, j)..<j])).split(
            separator: ";"
          ).map { Int($0) ?? 0 }
          if p.isEmpty {
            fg = nil
            bg = nil
          }
          var k = 0
          while k < p.count {
            switch p[k] {
            case 0:
              fg = nil
              bg = nil
            case 39: fg = nil
            case 49: bg = nil
            case 38, 48:
              let foreground = p[k] == 38
              var c: (Int, Int, Int)?
              if k + 4 < p.count, p[k + 1] == 2 {
                c = (p[k + 2], p[k + 3], p[k + 4])
                k += 4
              } else if k + 2 < p.count, p[k + 1] == 5 {
                c = rgb(index: p[k + 2])
                k += 2
              }
              if foreground { fg = c } else { bg = c }
            case 30...37, 90...97: fg = rgb(index: 16)
            case 40...47, 100...107: bg = rgb(index: 16)
            default: break
            }
            k += 1
          }
          i = j + 1
          continue
        }
        row.append(Cell(character: Character(scalars[i]), foreground: fg, background: bg))
        i += 1
      }
      rows.append(row)
    }
    return rows
  }
}

/// tilt-cli in a detached tmux session of its own: the screen a person sees.
private struct TmuxTerminal {
  let tmux: String
  let socket: String
  let status: URL
  private let client: Process

  init(
    running arguments: String, name: String, columns: Int = 100, rows: Int = 32,
    environment: String = ""
  ) throws {
    tmux = try Tool.tmux.require()
    socket = "tilt-\(name)-\(getpid())"
    status = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).status")
    try? FileManager.default.removeItem(at: status)
    let command =
      "cd '\(TiltCLI.packageRoot.path)' && \(environment.isEmpty ? "" : "env \(environment) ")"
      + "'\(TiltCLI.binary.path)' \(arguments) "
      + "2>'\(status.path).err'; echo $? > '\(status.path)'; sleep 5"
    // Not through TiltCLI.run: the tmux server it forks would hold the pipes
    // open, and reading them to the end would wait for the server to exit.
    client = Process()
    client.executableURL = URL(fileURLWithPath: tmux)
    client.arguments = [
      "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)",
      command,
    ]
    client.standardInput = FileHandle.nullDevice
    client.standardOutput = FileHandle.nullDevice
    client.standardError = FileHandle.nullDevice
    try client.run()
  }

  private func tm(_ args: [String]) throws -> TiltCLI.Result {
    try TiltCLI.runTool(tmux, ["-L", socket] + args)
  }

  func screen(escapes: Bool = false) throws -> String {
    let capture = try tm(["capture-pane", "-p"] + (escapes ? ["-e"] : []))
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
