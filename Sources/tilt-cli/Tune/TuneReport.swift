import Foundation

/// What `tune` prints: a table best first with the command to use, or SPEC §3's JSON.
struct TuneReport {
  var file: String
  var scores: [SettingScore]
  var referenceName: String
  var restFraction: Double

  var table: String {
    var lines = [
      "tilt-cli tune \(file): \(scores.count) settings, \(Int((restFraction * 100).rounded()))% of the recording at rest; lag against \(referenceName).",
      "",
      "rank  jitter (°)  lag (ms)  overshoot (°)" + (scores[0].error != nil ? "  error (°)" : "")
        + "  setting",
    ]
    for (i, s) in scores.enumerated() {
      var row = String(format: "%4d  %10.4f  %8.1f  %13.3f", i + 1, s.jitter, s.lag, s.overshoot)
      if let e = s.error { row += String(format: "  %9.3f", e) }
      lines.append(row + "  " + s.setting.arguments.joined(separator: " "))
    }
    lines += [
      "",
      "recommended: tilt-cli replay \(file) " + scores[0].setting.arguments.joined(separator: " "),
      "         or: tilt-cli live " + scores[0].setting.arguments.joined(separator: " "),
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  var json: JSONValue {
    func entry(_ s: SettingScore) -> JSONValue {
      var members: [(String, JSONValue)] = [
        ("arguments", .array(s.setting.arguments.map(JSONValue.string))),
        ("jitter", .number(s.jitter)), ("lag", .number(s.lag)), ("overshoot", .number(s.overshoot)),
        ("cost", .number(s.cost)),
      ]
      if let e = s.error { members.append(("error", .number(e))) }
      return .object(members)
    }
    return .object([
      ("file", .string(file)),
      ("reference", .string(referenceName)),
      ("settings", .array(scores.map(entry))),
      ("recommended", entry(scores[0])),
    ])
  }
}

/// A progress bar on standard error, drawn only when it is a terminal.
final class ProgressBar {
  private let label: String
  private let enabled = isatty(STDERR_FILENO) == 1
  private var lastDrawn = -1

  init(label: String) { self.label = label }

  func update(_ done: Int, of total: Int) {
    guard enabled, total > 0 else { return }
    let width = 30
    let filled = min(width, done * width / total)
    guard filled != lastDrawn || done == total else { return }
    lastDrawn = filled
    StandardError.write(
      "\r\(label) [" + String(repeating: "#", count: filled)
        + String(repeating: ".", count: width - filled) + "] \(done)/\(total)")
  }

  func finish() {
    if enabled, lastDrawn >= 0 { StandardError.write("\r\u{1B}[K") }
  }
}
