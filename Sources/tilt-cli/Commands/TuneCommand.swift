import CommandLineOptions
import Foundation
import Tilt
import TiltCard
import Tuning

/// `tilt-cli tune FILE`: which filter settings make the card steady at rest and quick in motion.
enum TuneCommand: Command {
  static let name = "tune"
  static let overview = "Find the filter settings that keep the card steady yet quick."
  static let usage = "tune FILE [--json] [--plot FILE.svg] [options]"
  static let arguments = [
    ArgumentDeclaration(
      name: "FILE",
      help: """
        An evemu recording or a CSV log (with ground truth when
        it has opt_qw… columns, as the BROAD logs do).
        """)
  ]
  static let discussion = """
    MEASURES:
      Every setting runs the estimator over the whole recording. The figures are
      taken on the attitude the card uses (relative to the start, as live runs
      by default) and on rotation angles between quaternions, which have no
      Euler singularity: a pad standing upright is measured like one lying flat.

      jitter     RMS rotation angle at rest from each still stretch's mean
                 rotation, moving at the stretch's steady rate (a slow creep is
                 not a wobble: it is the drift column, degrees per second),
                 after 0.3 s of settling; in degrees, and in card rotation
                 degrees ("card") as the tilt card shows it
      lag        the delay that best aligns the setting's rotations with the
                 reference's in motion (ms); the reference is the unfiltered
                 estimate smoothed forward and backward (no delay), or for a
                 joystick the stick's own tilt
      overshoot  the largest swing past the resting attitude within 1 s of a
                 stop, where a motion ends in a rest; in degrees ("angle") and
                 card degrees ("card")
      error      with ground truth only: RMS inclination error in motion
                 (BROAD's score; shown, not scored)

      Ranking: score = jitter/0.1° + lag/30 ms, lower first (0.1° of wobble
      costs as much as 30 ms of delay). Recommended: the lowest score among the
      settings at least as steady at rest and no laggier than the default
      (--filter oneeuro --min-cutoff 1 --beta 5), and with ground truth no less
      accurate, so following it makes the card neither shakier nor slower; the
      default itself when none is. --json
      carries the same: each setting's "score", "notMeasured" (and
      "overshootNotMeasured"), the recommendation's "basis".

      What a recording cannot show is said, not guessed: with no rest (or under
      1 s of it) jitter is not measured, with no motion (or too little) lag is
      not. Then the table is not ranked, the default is recommended, and the
      exit status is 0. With neither, nothing can be scored: exit status 1.
      Progress (settings done of the total, seconds elapsed) goes to stderr
      when it is a terminal.

      The table fits the terminal's width (100 columns when standard output
      is not a terminal); a column with nothing measured is left out, and a
      line under the notes says which and why.
    """
  enum Keys {
    static let json = Flag(
      "json", help: "One JSON object: settings best first and the recommended one.")
    static let plot = Option<String>.value(
      "plot", "FILE.svg",
      help: "Draw pitch and roll over time (unfiltered, recommended,\n"
        + "reference; rest shaded; a zoom on the busiest 10 s of a\n"
        + "long recording) and the jitter and lag of every setting.\n"
        + "The name must end in .svg and its directory must exist\n"
        + "and be writable, else it is a usage error (exit 64)\n"
        + "before any work.")
    static let search = Option<TuneSearch>.choice(
      "search",
      help: "A grid over every filter (default), or the One Euro\n"
        + "paper's procedure: with beta 0 lower the minimum cutoff\n"
        + "until steady, then raise beta until quick.")
  }
  /// The shared options tune takes, with what they mean here.
  private static let shared: [OptionDeclaration] = [
    PipelineOptions.Keys.fusion.declaration.describing(
      "The estimator to tune filters for (default auto)."),
    PipelineOptions.Keys.gain.declaration.describing(
      "The card gain the \"card\" columns are for, as live and\n"
        + "replay take it (default \(CardConfiguration().gain.compact))."),
    PipelineOptions.Keys.maxTilt.declaration.describing(
      "The card's largest tilt for those columns, as live and\n"
        + "replay take it (default \(CardConfiguration().maxTilt.compact))."),
    PipelineOptions.Keys.mountMatrix.declaration.describing(
      "The sensor's mount matrix, as live and replay take it."),
    PipelineOptions.Keys.stickRange.declaration.describing(
      "A joystick's tilt at full deflection, as live and replay\n"
        + "take it (default \(TiltConfiguration().stickRangeDegrees.compact))."),
  ]
  static let options =
    [Keys.json.declaration, Keys.plot.declaration, Keys.search.declaration] + shared

  struct Request {
    var path: String
    var search: TuneSearch
    var options: PipelineOptions
    var plotPath: String?
    var json: Bool
  }

  static func request(from arguments: CommandLineArguments) throws -> Request {
    guard let path = arguments.positionals.first else {
      throw UsageError("missing FILE (an evemu recording or a CSV log)")
    }
    let search = try arguments[Keys.search] ?? .grid
    let options = try PipelineOptions(arguments)
    let plotPath = try arguments[Keys.plot]
    if let plotPath { try checkPlotPath(plotPath) }
    return Request(
      path: path, search: search, options: options, plotPath: plotPath, json: arguments[Keys.json])
  }

  static func run(_ request: Request) throws -> Int32 {
    let (path, plotPath, json) = (request.path, request.plotPath, request.json)
    let progress = ProgressBar(label: "tune")
    let run: TuneRun
    do {
      let configuration = try request.options.tiltConfiguration()
      run = try TuneRun(
        path: path, configuration: configuration.deviceMotion, card: configuration.card,
        search: request.search
      ) { done, total in progress.update(done, of: total) }
    } catch let error as TuningError {
      // The library's advice, with the command that makes such a recording.
      guard case .tooFewSamples = error else { throw error }
      throw Failure("\(error) (tilt-cli record)")
    }
    progress.finish()
    let report = run.report
    if let plotPath {
      let plot = run.plot(title: "tilt-cli tune \(path)")
      do {
        try plot.svg().write(toFile: plotPath, atomically: true, encoding: .utf8)
      } catch {
        throw Failure("\(plotPath): cannot write the plot: \(error.localizedDescription)")
      }
    }
    print(
      json
        ? report.json.serialized()
        : report.table(
          width: TerminalMode.size()?.columns ?? 100, program: CommandList.program.name),
      terminator: json ? "\n" : "")
    return ExitStatus.success
  }

  /// `--plot` must name an SVG file that can be written: checked before any work.
  static func checkPlotPath(_ path: String) throws {
    let url = URL(fileURLWithPath: path)
    guard url.pathExtension.lowercased() == "svg" else {
      throw UsageError(
        "--plot \(path): the plot is an SVG file; give it a name that ends in .svg (e.g. tune.svg)")
    }
    var directory = (path as NSString).deletingLastPathComponent
    if directory.isEmpty { directory = "." }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw UsageError(
        "--plot \(path): the directory \(directory) does not exist; name a file in an existing directory"
      )
    }
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      guard !isDirectory.boolValue else {
        throw UsageError(
          "--plot \(path): that is a directory; name a file in it, e.g. \(path)/tune.svg")
      }
      guard FileManager.default.isWritableFile(atPath: path) else {
        throw UsageError("--plot \(path): the file cannot be written (permission denied)")
      }
    } else {
      guard FileManager.default.isWritableFile(atPath: directory) else {
        throw UsageError(
          "--plot \(path): cannot create a file in \(directory) (permission denied); name a file in a directory you can write"
        )
      }
    }
  }
}
