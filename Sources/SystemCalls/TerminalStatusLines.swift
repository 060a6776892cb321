/// A status of a few lines for a person: on a terminal (`live`) redrawn in
/// place at most 4 times a second, with messages said on their own lines
/// above it; otherwise the messages only. A server's display (DSU's slots,
/// the motion service's devices) words the lines and the messages.
package final class TerminalStatusLines {
  private let live: Bool
  private let note: (String) -> Void
  private let write: (String) -> Void
  private let writeControl: (String) -> Void
  private var drawnLines = 0
  private var lastDraw = 0.0

  /// `note` says a message (no line end); `write` writes status text (text
  /// from devices in it: escape it); `writeControl` writes the cursor moves
  /// that erase the drawn lines.
  package init(
    live: Bool, note: @escaping (String) -> Void, write: @escaping (String) -> Void,
    writeControl: @escaping (String) -> Void
  ) {
    self.live = live
    self.note = note
    self.write = write
    self.writeControl = writeControl
  }

  /// Says `text` on its own line, above the status on a terminal; with
  /// `redrawsAtOnce` the next ``draw(_:)`` draws the status again however
  /// soon it comes.
  package func say(_ text: String, redrawsAtOnce: Bool = true) {
    erase()
    note(text)
    if redrawsAtOnce { lastDraw = 0 }
  }

  /// Redraws the status on a terminal, at most 4 times a second: `lines`
  /// are asked only when it is drawn.
  package func draw(_ lines: () -> [String]) {
    guard live else { return }
    let now = MonotonicInstant.now.secondsValue
    guard now - lastDraw >= 0.25 else { return }
    lastDraw = now
    erase()
    let lines = lines()
    for line in lines { write(line + "\n") }
    drawnLines = lines.count
  }

  /// Leaves the last status on screen.
  package func end() { drawnLines = 0 }

  private func erase() {
    guard live, drawnLines > 0 else { return }
    writeControl(String(repeating: "\u{1B}[1A\u{1B}[2K", count: drawnLines) + "\r")
    drawnLines = 0
  }
}
