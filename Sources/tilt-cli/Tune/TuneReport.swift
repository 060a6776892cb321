import Attitude
import Foundation
import SystemCalls

/// The settings ranked, the one to use and why, and what the recording could
/// not show: what `tune` prints, as a table or as SPEC §3's JSON.
struct TuneReport {
  var file: String
  /// Best first by score; in the order tried when nothing could be scored.
  var scores: [SettingScore]
  var recommended: SettingScore
  /// Why `recommended` is the one, in a sentence.
  var basis: String
  /// What could and could not be measured, one line each.
  var measured: [String]
  var problems: [String]
  var canScore: Bool
  var referenceName: String
  var restFraction: Double
  var restRuns: [(Double, Double)]
  var hasError: Bool
  var card: (gain: Double, maxTilt: Double)

  /// The default filter of `live` and `replay`, the yardstick of the recommendation.
  static let defaultSetting = FilterSetting(filter: MotionConfiguration.defaultFilter)

  static let recommendationRule =
    "the lowest score among the settings at least as steady at rest and no laggier than the default (with ground truth also no less accurate), so following it makes the card neither shakier nor slower; the default when none is"

  init(file: String, scorer: FilterScorer, scores tried: [SettingScore]) {
    self.file = file
    referenceName = scorer.referenceName
    let samples = scorer.data.samples
    restFraction = Double(scorer.rest.filter { $0 }.count) / Double(max(scorer.rest.count, 1))
    restRuns = scorer.restRuns.map {
      (samples[$0.lowerBound].time, samples[$0.upperBound - 1].time)
    }
    hasError = tried.contains { $0.error != nil }
    card = (scorer.card.gain, scorer.card.maxTilt)
    canScore = scorer.canScore
    problems = [scorer.jitterProblem, scorer.lagProblem].compactMap { $0 }
    measured = []
    if scorer.jitterProblem == nil {
      measured.append(
        "jitter at rest over \(String(format: "%.1f", scorer.restSeconds)) s still (\(scorer.settledRuns.count) stretch\(scorer.settledRuns.count == 1 ? "" : "es"), each after \(FilterScorer.settleTime.compact) s of settling)"
      )
    }
    if scorer.lagProblem == nil {
      measured.append(
        "lag over \(String(format: "%.1f", scorer.motionSeconds)) s of motion, against \(scorer.referenceName)"
      )
    }
    let fallback = tried.first { $0.setting == TuneReport.defaultSetting } ?? tried[0]
    if canScore {
      scores = tried.sorted { $0.score! < $1.score! }
      // Never worse than the default: no shakier, no slower and, where the
      // file has ground truth, no less accurate.
      let candidates = scores.filter {
        $0.jitter! <= fallback.jitter! && $0.lag! <= fallback.lag!
          && ($0.error ?? 0) <= (fallback.error ?? 0)
      }
      recommended = candidates.first ?? fallback
      basis =
        recommended.setting == fallback.setting
        ? "no setting has a better score without being shakier at rest, laggier"
          + (hasError ? ", or less accurate against the ground truth" : "")
          + " than the default: keep it"
        : "the lowest score among the settings at least as steady at rest and no laggier than the default (\(fallback.setting.arguments.joined(separator: " ")))"
          + (hasError ? ", and no less accurate against the ground truth" : "")
    } else {
      scores = tried
      recommended = fallback
      let missing = scorer.lagProblem != nil ? "lag" : "jitter"
      basis =
        "\(missing) cannot be measured on this recording, so no setting can be shown to beat the default: keep it"
    }
  }

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

  private func cell(_ x: Double?, _ format: String, width: Int) -> String {
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
    StandardError.writeControl(
      "\r\u{1B}[K\(label) [" + String(repeating: "#", count: filled)
        + String(repeating: ".", count: width - filled) + "] \(done)/\(total) settings, "
        + String(format: "%.1f s", monotonicSeconds() - start))
  }

  func finish() {
    if enabled, drawn { StandardError.writeControl("\r\u{1B}[K") }
  }
}
