import CardServer
import Tilt
import TiltCard

/// `--serve [HOST:]PORT` (contract §6): the live page's server, and the rule that
/// ties its viewers to the updates: they run only while some viewer has the
/// page visible and nobody asked to stop; otherwise the device is closed (a
/// recording held). A replay starts when the first viewer has the page visible.
/// The server's callbacks hold this object until ``CardServer/close()``.
public final class LivePage {
  /// What the page says to whoever runs it.
  public enum Note: CustomStringConvertible {
    /// The page is served at this URL.
    case serving(url: String)
    /// The page is served beyond this machine, on this address.
    case servesNetwork(address: String)
    /// A viewer's command, or starting or stopping the updates, failed.
    case controlFailed(any Error)

    /// The note in words (a failed control: the error as Swift prints it).
    public var description: String {
      switch self {
      case .serving(let url): return "serving \(url)"
      case .servesNetwork(let address):
        return "warning: the card is served to the network on \(address): whoever "
          + "has this URL can watch the device and drive the card; every request needs its "
          + "token. Serve on 127.0.0.1 to keep it on this machine."
      case .controlFailed(let error): return "\(error)"
      }
    }
  }

  /// The page's server.
  public let server: CardServer
  private let onNote: (Note) -> Void
  /// `POST /control stop` (or `p` on the page) until `start`.
  private var stoppedByViewer = false

  /// Serves the page of `card` titled `title` on `address`; `onNote` hears
  /// the URL at once, and later what went wrong with a viewer's command.
  public init(
    address: ServeAddress, card: CardConfiguration, title: String, token: String? = nil,
    onNote: @escaping (Note) -> Void
  ) throws {
    server = try CardServer(
      address: address,
      page: HTMLRenderer(configuration: card, title: title).renderLive(), token: token)
    self.onNote = onNote
    onNote(.serving(url: server.url))
    if server.servesNetwork { onNote(.servesNetwork(address: "\(server.address)")) }
  }

  /// Whether updates should run now.
  public var wanted: Bool { server.anyViewerVisible && !stoppedByViewer }

  /// Serves `manager`'s frames and state; the viewers start and stop it. A
  /// recording waits for the first viewer before it starts.
  public func attach(to manager: TiltMotionManager) throws {
    let server = self.server
    manager.participants.append(server)
    manager.pipeline.frameObservers.append { server.broadcast($0) }
    server.status = { [weak manager] in
      CardServer.Status(
        deviceOpen: manager?.isDeviceOpen ?? false, state: manager?.state ?? .stopped)
    }
    let recording = manager.recording
    recording?.waitsToStart = true
    let apply: () -> Void = { [self, weak manager] in
      guard let manager else { return }
      do {
        if let recording, recording.waitsToStart {
          // The replay starts with the first viewer; until then nothing changes.
          guard server.anyViewerVisible else { return }
          recording.waitsToStart = false
          try manager.motion.followProcessor()
        }
        if self.wanted, manager.state == .stopped {
          try manager.perform(.startUpdates)
        } else if !self.wanted, manager.state == .active {
          try manager.perform(.stopUpdates)
        }
      } catch {
        self.onNote(.controlFailed(error))
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
    if recording == nil { apply() }
  }
}
