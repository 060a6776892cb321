import Foundation
import SystemCalls

/// Progress on standard error, drawn only when it is a terminal: settings
/// done of the total, and the seconds elapsed.
final class ProgressBar {
  private let label: String
  private let enabled = StandardError.isTerminal
  private let start = MonotonicInstant.now
  private var drawn = false

  init(label: String) { self.label = label }

  func update(_ done: Int, of total: Int) {
    guard enabled, total > 0 else { return }
    let width = 30
    let filled = min(width, done * width / total)
    drawn = true
    StandardError.writeControl(
      "\r\u{1B}[K\(label) [" + String(repeating: "#", count: filled)
        + String(repeating: ".", count: width - filled) + "] \(done)/\(total) settings, "
        + String(format: "%.1f s", start.duration(to: .now).seconds))
  }

  func finish() {
    if enabled, drawn { StandardError.writeControl("\r\u{1B}[K") }
  }
}
