import Attitude

/// The settings `tune` tries: a grid over each filter, or the One Euro paper's
/// procedure (Casiez et al. 2012: with β = 0 lower the minimum cutoff until the
/// card is steady at rest, then raise β until it is quick in motion).
public enum TuneSearch: String, CaseIterable, Sendable {
  case grid
  case oneeuro

  /// Jitter the procedure accepts at rest, degrees.
  static let steadyJitter = SettingScore.jitterScale
  /// Lag the procedure accepts in motion, milliseconds.
  static let quickLag = SettingScore.lagScale

  static let gridSettings: [FilterSetting] =
    [FilterSetting(filter: .none)]
    + [0.01, 0.02, 0.05, 0.103, 0.2, 0.4].map { FilterSetting(filter: .lowpass(tau: $0)) }
    + [0.1, 0.3, 1, 3].flatMap { minCutoff in
      [0, 0.1, 1, 5, 20].map {
        FilterSetting(
          filter: .oneEuro(
            minCutoff: minCutoff, beta: $0,
            derivativeCutoff: TuneSearch.derivativeCutoff))
      }
    }

  /// The fusion's own time constant, with no smoothing and with the default one.
  static let fusionSettings: [FilterSetting] = [1.0, 2, 3, 10, 20].flatMap { tau in
    [
      FilterSetting(filter: .none, fusionTau: tau),
      FilterSetting(filter: MotionConfiguration.defaultFilter, fusionTau: tau),
    ]
  }

  /// The default One Euro filter's derivative cutoff, which every One Euro setting keeps.
  static let derivativeCutoff: Double = {
    guard case .oneEuro(_, _, let d) = MotionConfiguration.defaultFilter else { return 1 }
    return d
  }()

  /// Scores every setting tried, in the order tried; `progress` gets settings done and the total.
  public func run(_ scorer: FilterScorer, progress: (Int, Int) -> Void) -> [SettingScore] {
    switch self {
    case .grid:
      let settings = TuneSearch.gridSettings + (scorer.usesFusion ? TuneSearch.fusionSettings : [])
      var scores: [SettingScore] = []
      for (i, setting) in settings.enumerated() {
        progress(i, settings.count)
        scores.append(scorer.score(setting))
      }
      progress(settings.count, settings.count)
      return scores
    case .oneeuro:
      return oneEuroProcedure(scorer, progress: progress)
    }
  }

  private func oneEuroProcedure(_ scorer: FilterScorer, progress: (Int, Int) -> Void)
    -> [SettingScore]
  {
    let budget = 41
    // The default first: the yardstick of the recommendation.
    var scores: [SettingScore] = []
    progress(0, budget)
    scores.append(scorer.score(TuneReport.defaultSetting))
    func tryIt(_ minCutoff: Double, _ beta: Double) -> SettingScore {
      progress(scores.count, budget)
      let s = scorer.score(
        FilterSetting(
          filter: .oneEuro(
            minCutoff: minCutoff, beta: beta,
            derivativeCutoff: TuneSearch.derivativeCutoff)))
      scores.append(s)
      return s
    }
    var minCutoff = 10.0
    while tryIt(minCutoff, 0).jitter ?? 0 > TuneSearch.steadyJitter, minCutoff > 0.01,
      scores.count < budget / 2
    {
      minCutoff *= 0.6
    }
    var beta = 0.0001
    while scores.count < budget {
      let s = tryIt(minCutoff, beta)
      if s.lag ?? 0 <= TuneSearch.quickLag || s.jitter ?? 0 > 2 * TuneSearch.steadyJitter { break }
      beta *= 2.5
    }
    progress(budget, budget)
    return scores
  }
}
