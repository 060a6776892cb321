import CardServer
import SystemCalls
import Tilt
import TiltCard

/// How a tool runs the card: the live page when asked to serve, the
/// terminal's keys or the watch on a piped standard output, then the loop
/// until SIGINT or SIGTERM, `q`, the end of a recording or the device gone.
public struct CardRun {
  /// Where to serve the live page (contract §6); nil for no page.
  public var serve: ServeAddress?
  /// The token every request to the page must carry.
  public var serveToken: String?
  /// Whether the frames go to standard output: its reader is watched, and
  /// the run ends quietly when it goes away.
  public var writesStandardOutput: Bool
  /// What the page says (its URL, a warning, a viewer's command that failed).
  public var onPageNote: (LivePage.Note) -> Void

  /// A run with a page on `serve` (none when nil).
  public init(
    serve: ServeAddress?, serveToken: String?, writesStandardOutput: Bool,
    onPageNote: @escaping (LivePage.Note) -> Void
  ) {
    self.serve = serve
    self.serveToken = serveToken
    self.writesStandardOutput = writesStandardOutput
    self.onPageNote = onPageNote
  }

  /// Runs `manager` with what is asked for beside it; returns how it ended,
  /// or `nil` when the reader of standard output went away (a quiet end).
  /// `onPage` is called once the page is served.
  public func run(
    _ manager: TiltMotionManager, card: CardConfiguration, title: String,
    onPage: (LivePage) -> Void = { _ in }
  ) throws -> TiltMotionManager.Ending? {
    let pipeline = manager.pipeline
    var page: LivePage?
    defer { page?.server.close() }
    if let serve {
      let served = try LivePage(
        address: serve, card: card, title: title, token: serveToken, onNote: onPageNote)
      page = served
      try served.attach(to: manager)
      (pipeline.sink as? TerminalSink)?.servedURL = served.server.url
      onPage(served)
    }
    if pipeline.sink is TerminalSink {
      manager.participants.append(TerminalKeys(pipeline: pipeline))
    } else if writesStandardOutput {
      manager.participants.append(ReaderWatch(pipeline: pipeline))
    }
    ignoreBrokenPipe()
    do {
      return try manager.run(endingOn: [.interrupt, .terminate, .windowChange])
    } catch let error as OutputSink.WriteError where error.isBrokenPipe {
      return nil
    }
  }

  /// How a replay ended, when it played.
  public struct Replayed: Hashable, Sendable {
    /// Items the recording played.
    public var playedItems: Int
    /// Whether someone asked to end it (`q`, a signal) before the recording did.
    public var endRequested: Bool
  }

  /// Plays `source` into `sink`. Served, the replay starts when a viewer has
  /// the page open (`onServed` is called then the page is up) and keeps
  /// serving at its end (the page says it ended) until a signal. With
  /// `loops` it plays again from its start at each end, from memory
  /// (`RecordingDevice.loop`). Nil when the reader of standard output went
  /// away, or a served replay ended before its first viewer.
  public func replay(
    _ source: any MotionSource, into sink: FrameSink, configuration: TiltConfiguration,
    speed: Double?, title: String, path: String?, loops: Bool = false,
    onServed: () -> Void = {}
  ) throws -> Replayed? {
    ignoreBrokenPipe()
    if source is DemoMotionSource {
      (sink as? TerminalSink)?.showsDemo()
    }
    let recording = try RecordingDevice(source, speed: speed, path: path ?? "the recording")
    if loops { recording.loop = .afterTimeReached }
    let manager = try TiltMotionManager(
      device: recording, configuration: configuration, sink: sink)
    let ending = try run(
      manager, card: configuration.card, title: title,
      onPage: { page in
        // The page says the replay ended and keeps its last frame; the
        // process serves on until a signal (contract §6).
        manager.holdsAtEnd = speed != nil
        let server = page.server
        manager.onEnd = { t in server.broadcastEnd(at: t) }
        onServed()
      })
    guard ending != nil, !recording.waitsToStart else { return nil }
    return Replayed(
      playedItems: recording.playedItems, endRequested: manager.pipeline.endRequested)
  }
}
