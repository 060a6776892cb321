import Foundation

/// `tilt-cli tune FILE`: which filter settings make the card steady at rest and quick in motion.
enum TuneCommand: Command {
  static let name = "tune"
  static let overview = "Find the filter settings that keep the card steady yet quick."
  static let usage = "tune FILE [--json] [--plot FILE.svg] [options]"
  static let help = """
    ARGUMENTS:
      FILE                    An evemu recording or a CSV log (with ground truth when
                              it has opt_qw… columns, as the BROAD logs do).

    OPTIONS:
      --json                  One JSON object: settings best first and the recommended one.
      --plot FILE.svg         Draw raw and filtered pitch and roll, rest shaded, and the
                              jitter/lag of every setting tried.
      --search grid|oneeuro   A grid over every filter (default), or the One Euro
                              paper's procedure: with beta 0 lower the minimum cutoff
                              until steady, then raise beta until quick.
      --fusion auto|accel|gyro
                              The estimator to tune filters for (default auto).

    Jitter is the RMS wobble at rest (degrees of pitch and roll), lag the delay
    behind the reference in motion (ms), overshoot the swing past the resting
    value after a motion (degrees). Settings are ranked by
    jitter/0.1° + lag/30 ms + overshoot/0.5°, best first.
    """
  static let spec = CommandLineArguments.Spec(
    options: ["plot", "fusion", "search", "mount-matrix", "stick-range"], flags: ["json"],
    maxPositionals: 1)

  static func run(_ arguments: CommandLineArguments) throws -> Int32 {
    guard let path = arguments.positionals.first else {
      throw UsageError("missing FILE (an evemu recording or a CSV log)")
    }
    let search = try arguments.choice("search", as: TuneSearch.self) ?? .grid
    let options = try PipelineOptions(arguments)
    let data = try TuneData.load(path: path, options: options)
    let fusion = options.motionConfiguration.fusion
    let scorer = FilterScorer(data: data, fusion: fusion)
    let progress = ProgressBar(label: "tune")
    var scores = search.run(scorer) { done, total in progress.update(done, of: total) }
    progress.finish()
    scores.sort { $0.cost < $1.cost }
    let best = scores[0]
    let report = TuneReport(
      file: path, scores: scores, referenceName: scorer.referenceName,
      restFraction: Double(scorer.rest.filter { $0 }.count) / Double(scorer.rest.count))
    if let plotPath = arguments.string("plot") {
      let plot = TunePlot(
        times: data.samples.map(\.time),
        raw: FilterScorer.run(data, fusion: fusion, setting: FilterSetting(filter: .none)),
        best: FilterScorer.run(data, fusion: fusion, setting: best.setting),
        reference: scorer.reference, referenceName: scorer.referenceName, rest: scorer.rest,
        scores: scores, recommended: best, title: "tilt-cli tune \(path)")
      do {
        try plot.svg().write(toFile: plotPath, atomically: true, encoding: .utf8)
      } catch {
        throw Failure("\(plotPath): cannot write the plot: \(error.localizedDescription)")
      }
    }
    print(
      arguments.has("json") ? report.json.serialized() : report.table,
      terminator: arguments.has("json") ? "\n" : "")
    return ExitStatus.success
  }
}
