import CardServer
import EvdevCore
import Tilt
import TiltCard

/// The live page's server as a participant of the event loop: its
/// descriptors and its deadline.
final class ServerParticipant: LoopParticipant {
  let server: CardServer
  init(_ server: CardServer) { self.server = server }
  var pollDescriptors: [Int32] { server.pollDescriptors }
  var deadline: MonotonicInstant? { server.deadline }
  func service(ready: Set<Int32>) throws { try server.service(ready: ready) }
}

/// A live source the page serves and drives: an evdev device's
/// ``TiltMotionManager`` or an IIO sensor's ``IIOMotionManager``.
protocol ServedLiveSource: AnyObject {
  var participants: [any LoopParticipant] { get set }
  var pipeline: TiltPipeline { get }
  var isDeviceOpen: Bool { get }
  var state: UpdateState { get }
  var deviceInfo: DeviceInfo { get }
  func perform(_ command: CardSession.Command) throws
  func run(endingOn signals: Set<EventLoop.Signal>) throws -> TiltMotionManager.Ending
}

extension ServedLiveSource {
  /// `live`'s run of a source: the page with `--serve`, the terminal's keys
  /// or the watch on a piped stdout, then the loop until Ctrl-C, `q` or the
  /// device gone (exit 1).
  func runLive(options: PipelineOptions, card: CardConfiguration) throws -> Int32 {
    var page: LivePage?
    if let address = options.serve {
      page = try LivePage(
        address: address, card: card, title: deviceInfo.name, token: options.serveToken)
      try page?.attach(to: self)
      (pipeline.sink as? TerminalSink)?.servedURL = page?.server.url
    }
    defer { page?.server.close() }
    if pipeline.sink is TerminalSink {
      participants.append(TerminalKeys(pipeline: pipeline))
    } else if options.output == nil {
      participants.append(ReaderWatch(pipeline: pipeline))
    }
    ignoreBrokenPipe()
    do {
      switch try run(endingOn: [.interrupt, .terminate, .windowChange]) {
      case .requested: return ExitStatus.success
      case .deviceWentAway: return ExitStatus.failure
      }
    } catch let error as OutputSink.WriteError where error.isBrokenPipe {
      return ExitStatus.success
    }
  }
}

extension TiltMotionManager: ServedLiveSource {}
extension IIOMotionManager: ServedLiveSource {}

/// `--serve [HOST:]PORT` (SPEC §6): the live page's server, and the rule that
/// ties its viewers to the updates: they run only while some viewer has the
/// page visible and nobody asked to stop; otherwise the device is closed.
/// The server's callbacks hold this object until ``CardServer/close()``.
final class LivePage {
  let server: CardServer
  /// The server in the loop.
  let participant: ServerParticipant
  /// `POST /control stop` (or `p` on the page) until `start`.
  private var stoppedByViewer = false

  init(address: ServeAddress, card: CardConfiguration, title: String, token: String? = nil) throws {
    do {
      server = try CardServer(
        address: address,
        page: HTMLRenderer(configuration: card, title: title).renderLive(), token: token)
    } catch {
      throw Failure(error.description)
    }
    participant = ServerParticipant(server)
    StandardError.write("serving \(server.url)\n")
    if server.servesNetwork {
      StandardError.write(
        "tilt-cli: warning: the card is served to the network on \(server.address): whoever "
          + "has this URL can watch the device and drive the card; every request needs its "
          + "token. Serve on 127.0.0.1 to keep it on this machine.\n")
    }
  }

  /// Whether updates should run now.
  var wanted: Bool { server.anyViewerVisible && !stoppedByViewer }

  /// Serves `manager`'s frames and state; the viewers start and stop it.
  func attach(to manager: any ServedLiveSource) throws {
    let server = self.server
    manager.participants.append(participant)
    manager.pipeline.frameObservers.append { server.broadcast($0) }
    server.status = { [weak manager] in
      CardServer.Status(
        deviceOpen: manager?.isDeviceOpen ?? false, state: manager?.state ?? .stopped)
    }
    let apply: () -> Void = { [self, weak manager] in
      guard let manager else { return }
      do {
        if self.wanted, manager.state == .stopped {
          try manager.perform(.startUpdates)
        } else if !self.wanted, manager.state == .active {
          try manager.perform(.stopUpdates)
        }
      } catch {
        StandardError.write("tilt-cli live: \(LibraryErrorText.describe(error))\n")
      }
    }
    server.onVisibilityChange = { _ in apply() }
    server.onControl = { [self, weak manager] control in
      guard let manager else { return }
      switch control {
      case .stop: self.stoppedByViewer = true
      case .start: self.stoppedByViewer = false
      case .flip, .recenter: try? manager.perform(control.command)
      }
      // A flip restarts stopped updates; they stay stopped while nobody watches.
      apply()
    }
    apply()
  }

  /// Serves a replay's frames; a viewer's stop and start pause the card.
  func attach(to player: RecordingPlayer) {
    let server = self.server
    let pipeline = player.pipeline
    player.participants.append(participant)
    pipeline.frameObservers.append { server.broadcast($0) }
    server.status = { [weak pipeline] in
      CardServer.Status(deviceOpen: false, state: pipeline?.session.state ?? .stopped)
    }
    let apply: () -> Void = { [self, weak pipeline] in
      guard let pipeline else { return }
      let state = pipeline.session.state
      if self.wanted && state == .stopped {
        try? pipeline.perform(.startUpdates)
      } else if !self.wanted && state == .active {
        try? pipeline.perform(.stopUpdates)
      }
    }
    server.onVisibilityChange = { _ in apply() }
    server.onControl = { [self, weak pipeline] control in
      guard let pipeline else { return }
      switch control {
      case .stop: self.stoppedByViewer = true
      case .start: self.stoppedByViewer = false
      case .flip, .recenter: try? pipeline.perform(control.command)
      }
      apply()
    }
  }

  /// Serves until a viewer has the page visible (true), or a signal or a
  /// participant's end request (the terminal's `q`, a reader gone: false).
  /// The participants are served on `loop` while it waits.
  func waitForViewer(
    alongside participants: [any LoopParticipant], of pipeline: TiltPipeline, on loop: EventLoop
  ) throws -> Bool {
    let others = loop.participants
    defer { loop.participants = others }
    loop.participants = others + [participant] + participants
    while !server.anyViewerVisible {
      if pipeline.endRequested { return false }
      let events = try loop.turn().events
      if events.contains(where: { $0 != .signal(.windowChange) }) { return false }
    }
    return !pipeline.endRequested
  }
}
