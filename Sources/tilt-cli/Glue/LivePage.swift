import CardServer
import Glibc
import SystemCalls
import Tilt
import TiltCard

extension CardServer: LoopParticipant {}

/// A live source the page serves and drives: an evdev device's
/// ``TiltMotionManager`` or an IIO sensor's ``IIOMotionManager``.
protocol ServedLiveSource: AnyObject {
  var participants: [any LoopParticipant] { get set }
  var pipeline: TiltPipeline { get }
  var isDeviceOpen: Bool { get }
  var state: UpdateState { get }
  func perform(_ command: CardSession.Command) throws
}

extension TiltMotionManager: ServedLiveSource {}
extension IIOMotionManager: ServedLiveSource {}

/// `--serve [HOST:]PORT` (SPEC §6): the live page's server, and the rule that
/// ties its viewers to the updates: they run only while some viewer has the
/// page visible and nobody asked to stop; otherwise the device is closed.
/// The server's callbacks hold this object until ``CardServer/close()``.
final class LivePage {
  let server: CardServer
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
    manager.participants.append(server)
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
    player.participants.append(server)
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
  /// The participants are served while it waits.
  func waitForViewer(alongside participants: [any LoopParticipant], of pipeline: TiltPipeline)
    throws -> Bool
  {
    let signals = try SignalPipe()
    while !server.anyViewerVisible {
      if pipeline.endRequested { return false }
      let others = participants.map(\.pollDescriptors)
      let ready = try Poller.wait(
        for: [signals.fileDescriptor] + server.pollDescriptors + others.flatMap { $0 },
        timeout: server.deadline.map { max(0, $0 - monotonicSeconds()) })
      if ready.contains(signals.fileDescriptor), signals.drain().contains(where: { $0 != SIGWINCH })
      {
        return false
      }
      try server.service(ready: ready)
      for (participant, descriptors) in zip(participants, others) {
        let mine = ready.intersection(descriptors)
        if !mine.isEmpty { try participant.service(ready: mine) }
      }
    }
    return !pipeline.endRequested
  }
}
