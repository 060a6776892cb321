import SystemCalls
import Tilt
import TiltCard

/// How `live` and `replay` run the card: the page with `--serve`, the
/// terminal's keys or the watch on a piped stdout, then the loop until
/// Ctrl-C, `q`, the end of a recording or the device gone.
enum CardRun {
  /// Runs `manager` with what the options ask for beside it; returns how it
  /// ended, or `nil` when the reader of standard output went away (a quiet end).
  static func run(
    _ manager: TiltMotionManager, options: PipelineOptions, card: CardConfiguration,
    title: String, onPage: (LivePage) -> Void = { _ in }
  ) throws -> TiltMotionManager.Ending? {
    let pipeline = manager.pipeline
    var page: LivePage?
    defer { page?.server.close() }
    if let address = options.serve {
      let served = try LivePage(
        address: address, card: card, title: title, token: options.serveToken)
      page = served
      try served.attach(to: manager)
      (pipeline.sink as? TerminalSink)?.servedURL = served.server.url
      onPage(served)
    }
    if pipeline.sink is TerminalSink {
      manager.participants.append(TerminalKeys(pipeline: pipeline))
    } else if options.output == nil {
      manager.participants.append(ReaderWatch(pipeline: pipeline))
    }
    ignoreBrokenPipe()
    do {
      return try manager.run(endingOn: [.interrupt, .terminate, .windowChange])
    } catch let error as OutputSink.WriteError where error.isBrokenPipe {
      return nil
    }
  }

  /// `live`'s run: exit 1 when the device went away.
  static func live(_ manager: TiltMotionManager, options: PipelineOptions) throws -> Int32 {
    let ending = try run(
      manager, options: options, card: manager.configuration.card,
      title: manager.deviceInfo?.name ?? manager.devicePath)
    return ending == .deviceWentAway ? ExitStatus.failure : ExitStatus.success
  }

  /// `replay`'s run of `source` into the sink the options ask for. Served,
  /// the replay starts when a viewer has the page open and keeps serving at
  /// its end (the page says it ended) until a signal. `again` (`--loop`)
  /// gives the source to play at each end. `emptyNote` goes to stderr when
  /// the source had nothing to play.
  static func replay(
    _ source: any MotionSource, options: PipelineOptions, configuration: TiltConfiguration,
    speed: Double?, title: String, path: String?, again: (() throws -> any MotionSource)?,
    endNote: String?, emptyNote: String?
  ) throws -> Int32 {
    ignoreBrokenPipe()
    let sink = try options.makeSink(card: configuration.card, title: title, source: path)
    if source is DemoMotionSource {
      (sink as? TerminalSink)?.showsDemo()
    }
    let recording = try RecordingDevice(source, speed: speed, path: path ?? "the recording")
    recording.again = again
    let manager = try TiltMotionManager(
      device: recording, configuration: configuration, sink: sink)
    let ending = try run(
      manager, options: options, card: configuration.card, title: title,
      onPage: { page in
        // The page says the replay ended and keeps its last frame; the
        // process serves on until Ctrl-C (SPEC §6).
        manager.holdsAtEnd = speed != nil
        let server = page.server
        manager.onEnd = { t in server.broadcastEnd(at: t) }
        StandardError.write("tilt-cli replay: the replay starts when the page is open\n")
      })
    // A reader gone, or a served replay ended before its first viewer.
    guard ending != nil, !recording.waitsToStart else { return ExitStatus.success }
    // After the view is gone, so that it stays on the terminal.
    if let emptyNote, recording.playedItems == 0, !manager.pipeline.endRequested {
      StandardError.write("\(emptyNote)\n")
    }
    if let endNote, !manager.pipeline.endRequested { StandardError.write("\(endNote)\n") }
    return ExitStatus.success
  }
}

extension TiltMotionManager {
  /// `live`'s run of this manager (``CardRun/live(_:options:)``).
  func runLive(options: PipelineOptions, card: CardConfiguration) throws -> Int32 {
    try CardRun.live(self, options: options)
  }
}
