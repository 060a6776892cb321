/// `tilt-cli replay FILE`: an evemu recording or CSV log through the whole pipeline.
enum ReplayCommand: Command {
  static let name = "replay"
  static let overview = "Replay an evemu recording or a CSV motion log through the tilt pipeline."
  static let usage = "replay FILE [--speed X|max] [options]"
  static let help = """
    ARGUMENTS:
      FILE                    An evemu recording (evemu-record's format) or a CSV log
                              with a header row (t_s, acc_x_g… or acc_x_m_s2…, gyr_…).

    OPTIONS:
      --speed X|max           Play at X times the recorded speed (default 1), or as fast
                              as possible with max; frames are the same either way.
    \(PipelineOptions.help)
    """
  static let spec = CommandLineArguments.Spec(
    options: PipelineOptions.valueOptions.union(["speed"]),
    flags: PipelineOptions.flagOptions,
    aliases: ["o": "output"], maxPositionals: 1)

  static func run(_ arguments: CommandLineArguments) throws -> Int32 {
    let options = try PipelineOptions(arguments)
    let speed = try playbackSpeed(arguments.string("speed"))
    guard let path = arguments.positionals.first else {
      throw UsageError("missing FILE (an evemu recording or a CSV log)")
    }
    let source = try RecordingSource.open(path: path, options: options)
    try Pipeline(options: options, hasGyroscope: source.hasGyroscope)
      .replay(source, speed: speed)
    return ExitStatus.success
  }

  /// `nil` for `max`.
  static func playbackSpeed(_ text: String?) throws(UsageError) -> Double? {
    guard let text else { return 1 }
    if text == "max" { return nil }
    guard let value = Double(text), value.isFinite, value > 0 else {
      throw UsageError("'--speed' needs a positive number or 'max', not '\(text)'")
    }
    return value
  }
}
