import CommandLineOptions
import SensorData
import SystemCalls
import Tilt
import TiltCard

/// `tilt-cli replay FILE`: an evemu recording or CSV log through the whole pipeline.
enum ReplayCommand: Command {
  static let name = "replay"
  static let overview = "Replay an evemu recording or a CSV motion log through the tilt pipeline."
  static let usage = "replay FILE [--speed X|max] [options]"
  static let arguments = [
    ArgumentDeclaration(
      name: "FILE",
      help: """
        An evemu recording (evemu-record's format) or a CSV log
        with a header row (\(CSVColumns.time), \(CSVColumns.accelerometerG.x)… or \(CSVColumns.accelerometerMetresPerSecondSquared.x)…, \(CSVColumns.gyroscopeRadiansPerSecond.prefix)_…).
        """)
  ]
  enum Keys {
    /// Times the recorded speed; `nil` for `max`.
    static let speed = Option<Double?>.parsed(
      "speed", "X|max",
      help: "Play at X times the recorded speed, or as fast as possible\n"
        + "with max; frames are the same either way (default 1, or\n"
        + "max when writing a file: --output or --format html).",
      parse: { text throws(UsageError) in try playbackSpeed(text) })
    static let loop = Flag(
      "loop",
      help: "Play the recording again from its start at its end, until\n"
        + "q or Ctrl-C (a paced replay: not with --speed max).")
  }
  static let options =
    [Keys.speed.declaration, Keys.loop.declaration] + PipelineOptions.declarations

  struct Request {
    var options: PipelineOptions
    /// Times the recorded speed; `nil` for as fast as possible.
    var speed: Double?
    var path: String
    var loop: Bool
  }

  static func request(from arguments: CommandLineArguments) throws(UsageError) -> Request {
    let options = try PipelineOptions(arguments)
    // Without --speed: 1, or max when the replay writes a file.
    let writesFile =
      options.serve == nil && (options.output != nil || options.resolvedFormat == .html)
    let speed = try arguments[Keys.speed] ?? (writesFile ? nil : 1)
    guard let path = arguments.positionals.first else {
      throw UsageError("missing FILE (an evemu recording or a CSV log)")
    }
    let loop = arguments[Keys.loop]
    if loop, speed == nil {
      throw UsageError(
        "'--loop' plays until q or Ctrl-C: it needs a paced replay, not --speed max "
          + "(the default when writing a file; give --speed 1)")
    }
    return Request(options: options, speed: speed, path: path, loop: loop)
  }

  static func run(_ request: Request) throws -> Int32 {
    let (options, speed, path) = (request.options, request.speed, request.path)
    let configuration = try options.tiltConfiguration()
    let source = try Recording.open(path: path, configuration: configuration)
    for note in source.notes { StandardError.write("tilt-cli replay: \(note)\n") }
    return try play(
      source, options: options, configuration: configuration, speed: speed,
      title:
        "\(TerminalText.escaped(path.split(separator: "/").last.map(String.init) ?? path)) · tilt",
      path: path,
      loops: request.loop,
      emptyNote: "tilt-cli replay: \(path) has no samples to play: nothing but its header "
        + "(no motion events, or no data rows)")
  }

  /// Plays `source` into the sink the options ask for; the terminal's keys
  /// join a paced replay. A reader that goes away ends it quietly.
  /// `emptyNote` goes to stderr when the source had nothing to play.
  /// `loops` (`--loop`): it plays again from its start at each end. Served, the
  /// replay keeps serving at its end (the page says it ended) until a signal.
  static func play(
    _ source: any MotionSource, options: PipelineOptions, configuration: TiltConfiguration,
    speed: Double?, title: String = "tilt", path: String? = nil,
    loops: Bool = false, endNote: String? = nil,
    emptyNote: String? = nil
  ) throws -> Int32 {
    let sink = try options.makeSink(card: configuration.card, title: title, source: path)
    let replayed = try options.cardRun.replay(
      source, into: sink, configuration: configuration, speed: speed, title: title, path: path,
      loops: loops,
      onServed: {
        StandardError.write("tilt-cli replay: the replay starts when the page is open\n")
      })
    // After the view is gone, so that it stays on the terminal.
    guard let replayed, !replayed.endRequested else { return ExitStatus.success }
    if let emptyNote, replayed.playedItems == 0 { StandardError.write("\(emptyNote)\n") }
    if let endNote { StandardError.write("\(endNote)\n") }
    return ExitStatus.success
  }

  /// `--speed X|max`: `nil` for `max`.
  static func playbackSpeed(_ text: String) throws(UsageError) -> Double? {
    if text == "max" { return nil }
    guard let value = Double(text), value.isFinite, value > 0 else {
      throw UsageError("'--speed' needs a positive number or 'max', not '\(text)'")
    }
    return value
  }
}
