import Attitude

extension TunePlot {
  /// The plot of `report`: unfiltered, recommended and reference over time, and the scatter.
  public init(report: TuneReport, scorer: FilterScorer, title: String) {
    let times = scorer.data.samples.map(\.time)
    let t0 = times[0]
    let raw = scorer.run(FilterSetting(filter: .none)).attitudes
    let best = scorer.run(report.recommended.setting).attitudes
    var series = [
      TunePlot.Series(
        name: "unfiltered", color: "#bdbdbd", width: 3.2, dash: false, times: times, attitudes: raw),
      TunePlot.Series(
        name: "reference (\(scorer.data.isJoystick ? "stick tilt" : "zero-phase smoothed"))",
        color: "#2a9d8f", width: 1.2, dash: true,
        times: scorer.reference.indices.map { t0 + Double($0) * scorer.step },
        attitudes: scorer.reference),
      TunePlot.Series(
        name: "recommended", color: "#d62828", width: 1.2, dash: false, times: times,
        attitudes: best),
    ]
    if scorer.data.isJoystick {
      // A stick's tilt holds between its reports.
      for k in series.indices { series[k].steps = true }
    }
    var notes: [String] = []
    if !report.measured.isEmpty {
      notes.append("Measured: " + report.measured.joined(separator: "; "))
    }
    if !report.problems.isEmpty {
      notes.append("Not measured: " + report.problems.joined(separator: "; "))
    }
    self.init(
      title: title,
      subtitle: [
        "recommended: " + report.recommended.setting.arguments.joined(separator: " ") + " (why: "
          + report.basis + ")",
        notes.joined(separator: ". ") + ".",
        "Angles are the card's rotation from the start about its x axis (pitch) and y axis (roll), as a rotation vector: continuous through ±90° pitch, where Euler roll is undefined; "
          + (report.canScore ? SettingScore.scoreRule + "." : "not ranked."),
      ],
      series: series, busiestFrom: 1, rest: report.restRuns, scores: report.scores,
      ranked: report.canScore, recommended: report.recommended.setting,
      defaultSetting: TuneReport.defaultSetting,
      scatterNote: report.canScore
        ? nil : "No jitter/lag chart: " + report.problems.joined(separator: "; ") + ".")
  }
}
