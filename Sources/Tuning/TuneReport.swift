import Attitude
import Foundation

/// The settings ranked, the one to use and why, and what the recording could
/// not show: what `tune` prints, as a table or as contract §3.9's JSON.
public struct TuneReport: Sendable {
  public var file: String
  /// Best first by score; in the order tried when nothing could be scored.
  public var scores: [SettingScore]
  public var recommended: SettingScore
  /// Why `recommended` is the one, in a sentence.
  public var basis: String
  /// What could and could not be measured, one line each.
  public var measured: [String]
  public var problems: [String]
  /// Why no overshoot is measured though lag is: no motion ends in a long enough rest.
  public var overshootProblem: String?
  public var canScore: Bool
  public var referenceName: String
  public var restFraction: Double
  /// The still stretches, seconds from the recording's clock: from, to.
  public var restRuns: [(Double, Double)]
  public var hasError: Bool
  public var card: (gain: Double, maxTilt: Double)

  /// The default filter of `live` and `replay`, the yardstick of the recommendation.
  public static let defaultSetting = FilterSetting(filter: MotionConfiguration.defaultFilter)

  public static let recommendationRule =
    "the lowest score among the settings at least as steady at rest and no laggier than the default (with ground truth also no less accurate), so following it makes the card neither shakier nor slower; the default when none is"

  public init(file: String, scorer: FilterScorer, scores tried: [SettingScore]) {
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
    overshootProblem =
      scorer.lagProblem == nil && scorer.stops.isEmpty
      ? "no motion in this recording ends in a rest of over \(FilterScorer.overshootWindow.compact) s, where an overshoot would show"
      : nil
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
}
