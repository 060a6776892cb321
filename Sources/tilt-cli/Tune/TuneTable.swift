import Foundation
import SystemCalls
import Tuning

extension TuneReport {
  var table: String {
    let cardNote = "card (°)"
    var header =
      "rank   score  jitter (°)  \(cardNote)  drift (°/s)  lag (ms)  overshoot (°)  \(cardNote)"
    if hasError { header += "  error (°)" }
    header += "  setting"
    var lines = [
      "tilt-cli tune \(file): \(scores.count) settings, \(Int((restFraction * 100).rounded()))% of the recording at rest."
    ]
    lines += measured.map { "measured: " + $0 + "." }
    lines += problems.map { "not measured: " + $0 + "." }
    lines += ["", header]
    for (i, s) in scores.enumerated() {
      var row = canScore ? String(format: "%4d", i + 1) : "   -"
      row += "  " + cell(s.score, "%6.2f", width: 6)
      row += "  " + cell(s.jitter, "%10.4f", width: 10)
      row += "  " + cell(s.cardJitter, "%8.4f", width: 8)
      row += "  " + cell(s.drift, "%11.4f", width: 11)
      row +=
        "  "
        + (s.lagAtLimit ? "  ≥" + String(format: "%5.0f", s.lag!) : cell(s.lag, "%8.1f", width: 8))
      row += "  " + cell(s.overshoot, "%13.3f", width: 13)
      row += "  " + cell(s.cardOvershoot, "%8.3f", width: 8)
      if hasError { row += "  " + cell(s.error, "%9.3f", width: 9) }
      row += "  " + s.setting.arguments.joined(separator: " ")
      if s.setting == recommended.setting { row += "   ← recommended" }
      lines.append(row)
    }
    lines += [""] + explanation.map { $0 }
    lines += [
      "",
      "recommended: tilt-cli replay \(file) "
        + recommended.setting.arguments.joined(separator: " "),
      "         or: tilt-cli live " + recommended.setting.arguments.joined(separator: " "),
      "        why: " + basis + ".",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// The lines under the table that say how each column is made.
  var explanation: [String] {
    var lines = [
      canScore
        ? "\(SettingScore.scoreRule): \(SettingScore.jitterScale.compact)° of wobble at rest costs as much as \(SettingScore.lagScale.compact) ms of delay in motion."
        : "not ranked: \(problems.joined(separator: "; ")).",
      "jitter: RMS rotation angle of the reference-relative attitude at rest from each still stretch's mean rotation, drifting at the stretch's steady rate; drift: that rate; card: the wobble in card rotation degrees (gain \(card.gain.compact)°/rad, max tilt \(card.maxTilt.compact)°).",
      "lag: the delay that best aligns the setting's rotations with the reference's in motion. overshoot: the largest swing past the resting attitude within \(FilterScorer.overshootWindow.compact) s of a stop (- where no motion ends in a rest).",
    ]
    if hasError {
      lines.append(
        "error: RMS inclination error against the file's ground truth in motion (BROAD's score); shown, not in the score."
      )
    }
    return lines
  }

  var json: JSONValue {
    func number(_ x: Double?) -> JSONValue { x.map(JSONValue.number) ?? .null }
    func entry(_ s: SettingScore) -> [(String, JSONValue)] {
      var members: [(String, JSONValue)] = [
        ("arguments", .array(s.setting.arguments.map(JSONValue.string))),
        ("jitter", number(s.jitter)), ("cardJitter", number(s.cardJitter)),
        ("drift", number(s.drift)),
        ("lag", number(s.lag)), ("lagAtLimit", .bool(s.lagAtLimit)),
        ("overshoot", number(s.overshoot)), ("cardOvershoot", number(s.cardOvershoot)),
        ("score", number(s.score)), ("cost", number(s.score)),
      ]
      if hasError { members.append(("error", number(s.error))) }
      return members
    }
    return .object([
      ("file", .string(file)),
      ("reference", .string(referenceName)),
      ("measured", .array(measured.map(JSONValue.string))),
      ("notMeasured", .array(problems.map(JSONValue.string))),
      ("ranked", .bool(canScore)),
      ("score", .string(SettingScore.scoreRule)),
      ("recommendationRule", .string(TuneReport.recommendationRule)),
      ("restFraction", .number(restFraction)),
      ("settle", .number(FilterScorer.settleTime)),
      (
        "rest",
        .array(restRuns.map { .object([("from", .number($0.0)), ("to", .number($0.1))]) })
      ),
      ("settings", .array(scores.map { .object(entry($0)) })),
      ("recommended", .object(entry(recommended) + [("basis", .string(basis))])),
    ])
  }

  fileprivate func cell(_ x: Double?, _ format: String, width: Int) -> String {
    guard let x else { return String(repeating: " ", count: width - 1) + "-" }
    return String(format: format, x)
  }
}

/// Progress on standard error, drawn only when it is a terminal: settings
/// done of the total, and the seconds elapsed.
final class ProgressBar {
  private let label: String
  private let enabled = isatty(STDERR_FILENO) == 1
  private let start = monotonicSeconds()
  private var drawn = false

  init(label: String) { self.label = label }

  func update(_ done: Int, of total: Int) {
    guard enabled, total > 0 else { return }
    let width = 30
    let filled = min(width, done * width / total)
    drawn = true
    StandardError.write(
      "\r\u{1B}[K\(label) [" + String(repeating: "#", count: filled)
        + String(repeating: ".", count: width - filled) + "] \(done)/\(total) settings, "
        + String(format: "%.1f s", monotonicSeconds() - start))
  }

  func finish() {
    if enabled, drawn { StandardError.write("\r\u{1B}[K") }
  }
}
