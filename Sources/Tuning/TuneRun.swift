import Motion
import TiltCard

/// One tuning of a recording, as an app calls it: "the steadiest filter for
/// my device". Loads the recording, measures every setting the search tries
/// and ranks them; `report.recommended` is the setting to use.
///
/// ```swift
/// let run = try TuneRun(path: "my.evemu")
/// configuration.motion = run.report.recommended.setting.configuration(configuration.motion)
/// ```
public struct TuneRun: Sendable {
  public let scorer: FilterScorer
  public let report: TuneReport

  /// Tunes `path` (evemu or CSV), decoded as `configuration` says, for its
  /// estimator and for `card`; `progress` gets the settings done and the total. Throws ``TuningError``
  /// when nothing can be scored, and the recording's own errors (file and line).
  public init(
    path: String, configuration: DeviceMotionConfiguration = DeviceMotionConfiguration(),
    card: CardConfiguration = CardConfiguration(), search: TuneSearch = .grid,
    progress: (Int, Int) -> Void = { _, _ in }
  ) throws {
    let data = try TuneData.load(path: path, configuration: configuration)
    let scorer = FilterScorer(data: data, base: configuration.motion, card: card)
    if let jitterProblem = scorer.jitterProblem, let lagProblem = scorer.lagProblem {
      throw TuningError.nothingToScore(
        path: path, jitterProblem: jitterProblem, lagProblem: lagProblem)
    }
    self.scorer = scorer
    report = TuneReport(file: path, scorer: scorer, scores: search.run(scorer, progress: progress))
  }

  /// The plot of this run (``TunePlot``), headed by `title`.
  public func plot(title: String) -> TunePlot {
    TunePlot(report: report, scorer: scorer, title: title)
  }
}
