import CMicroHTTPD
import SystemCalls
import TiltCard

/// The live page's HTTP server (contract §6), on libmicrohttpd, driven by the
/// caller's single `poll()` loop.
///
/// libmicrohttpd runs in external-polling mode through its epoll descriptor
/// (``pollDescriptors``): the loop polls it with the others, calls
/// ``service(ready:)`` when it is readable, and sleeps no longer than
/// ``deadline``: `MHD_get_timeout`'s answer, or sooner the deadline of a
/// request not yet finished (``Limits/requestTime``). Open event streams
/// have no deadline, so at rest nothing here wakes the process.
///
/// Each `/frames` stream is a ``Viewer``: it is suspended in libmicrohttpd
/// while it has nothing to send and resumed by ``broadcast(frameJSON:)``. A
/// viewer's queue is bounded: a viewer that reads slowly loses its own oldest
/// frames and never holds up the loop or the others. At most
/// ``Limits/connections`` connections are open at once, and
/// ``Limits/connectionsPerAddress`` from one address: at either limit the
/// accept policy makes room by cutting the oldest connection of that address
/// (or of all) that has not finished its request, and closes the new one
/// when there is none, so idle or slow clients cannot keep a real viewer out.
/// (Not `MHD_OPTION_CONNECTION_LIMIT`: at that limit libmicrohttpd 0.9.75
/// leaves the rest in the kernel's backlog and, in external epoll mode, never
/// accepts again once they go; the flood test caught it.)
///
/// Who may use it is ``Access``: on loopback (decided from the bound socket)
/// the DNS-rebinding guard, elsewhere a token on every request.
///
/// Not thread-safe (not `Sendable`): everything happens on the thread that
/// calls ``service(ready:)`` and ``broadcast(frameJSON:)``; the callbacks run
/// on it too.
public final class CardServer {
  /// A body of `POST /control`.
  public enum Control: String, CaseIterable, Hashable, Sendable {
    case flip, recenter, stop, start

    /// The ``CardSession`` command for this control.
    public var command: CardSession.Command {
      switch self {
      case .flip: .flip
      case .recenter: .recenter
      case .stop: .stopUpdates
      case .start: .startUpdates
      }
    }
  }

  /// What `/state` reports beyond the viewers: supplied by the server's user.
  public struct Status: Hashable, Sendable {
    /// Whether the motion device is open.
    public var deviceOpen: Bool
    public var state: UpdateState
    public init(deviceOpen: Bool, state: UpdateState) {
      self.deviceOpen = deviceOpen
      self.state = state
    }
  }

  public struct Limits: Hashable, Sendable {
    /// Connections open at once, viewers included.
    public var connections: Int = 64
    /// Connections open at once from one address (an IPv6 /64): above the 6
    /// a browser opens to one server, with room for a few browsers or OBS on
    /// one machine; a quarter of ``connections``, so one address cannot fill it.
    public var connectionsPerAddress: Int = 16
    /// Open `/frames` streams at once; more get 503. Below ``connections``,
    /// so that streams (which have no deadline and are never cut to make
    /// room) leave the rest for the page and its controls.
    public var streams: Int = 48
    /// The time a connection has to finish a request (contract §6.5: 10 s),
    /// counted from its start or the end of its previous request; then it is
    /// closed.
    public var requestTime: Duration = .seconds(10)
    /// Events queued for one viewer before its oldest are dropped.
    public var queuedEvents: Int = 256
    /// The longest `POST` body read; a longer one is answered 400.
    public var bodyBytes: Int = 256
    public init() {}
  }

  /// The server could not start, worded for the person who asked for it.
  public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// The address served, with the port the kernel picked for port 0.
  public let address: ServeAddress
  public let limits: Limits
  /// Who may use it: the rebinding guard on loopback, the token elsewhere.
  public let access: Access
  /// `http://HOST:PORT/`, with `?token=…` when one is needed: the URL of the
  /// `serving` line on stderr.
  public var url: String { "http://\(address)/" + (access.token.map { "?token=\($0)" } ?? "") }
  /// Whether the bound address is not loopback: the card is on the network.
  public var servesNetwork: Bool { !access.loopback }

  /// Called for each accepted `POST /control`.
  public var onControl: ((Control) -> Void)?
  /// Called when "some viewer has the page visible" changes (contract §6.3: while
  /// none is, updates stop and the device is closed).
  public var onVisibilityChange: ((Bool) -> Void)?
  /// The device and update state `/state` reports.
  public var status: () -> Status = { Status(deviceOpen: false, state: .active) }

  /// Whether some viewer has the page visible.
  public private(set) var anyViewerVisible = false
  /// The open `/frames` streams.
  public var viewerCount: Int { viewers.values.filter { !$0.closing }.count }
  /// The open streams whose page is visible.
  public var visibleViewerCount: Int { viewers.values.filter { !$0.closing && $0.visible }.count }
  /// Connections open now.
  public internal(set) var openConnections = 0
  /// Connections closed at once: the limit was reached and every connection
  /// counted had finished its request.
  public internal(set) var refusedConnections = 0
  /// Unfinished connections cut to make room for a new one.
  public internal(set) var evictedConnections = 0
  /// Connections cut because their request was not finished in time.
  public internal(set) var timedOutConnections = 0
  /// Events dropped so far for slow viewers, all viewers together.
  public private(set) var droppedEvents = 0

  let page: [UInt8]
  private let box: ServerBox
  var serverBox: ServerBox { box }
  private var daemon: OpaquePointer?
  private let epollDescriptor: Int32
  var viewers: [String: Viewer] = [:]
  /// Viewers in the order they came, for a stable broadcast order.
  var order: [Viewer] = []
  private var running = false
  private var runAgain = false
  /// Viewers to resume once the current MHD_run returns.
  private var pendingWakes: [Viewer] = []
  /// Callbacks to call once the current MHD_run returns.
  private var pendingCallbacks: [() -> Void] = []
  private let encoder = JSONLFrameEncoder()
  private var generator = SystemRandomNumberGenerator()
  /// The open connections, by libmicrohttpd's handle.
  var connections: [OpaquePointer: TrackedConnection] = [:]
  private var connectionSerial = 0
  let contentSecurityPolicy: String
  /// `TILT_SERVE_DEBUG=1`: one stderr line per viewer event, for diagnosis.
  private let debug = SystemInfo.environment("TILT_SERVE_DEBUG") != nil

  func trace(_ text: @autoclosure () -> String) {
    guard debug else { return }
    let line = "tilt-serve: " + text() + "\n"
    try? Syscall.writeAll(StandardDescriptor.error, Array(line.utf8), badDescriptor: .isError)
  }

  /// Starts serving `page` at `address`. Every request needs `token` when
  /// one is given; off loopback, without one, a random one is made.
  public init(
    address: ServeAddress, page: String, limits: Limits = Limits(), token: String? = nil
  ) throws(Failure) {
    self.page = Array(page.utf8)
    self.limits = limits
    contentSecurityPolicy = Access.contentSecurityPolicy(page: page)
    let resolved: SocketAddress
    switch SocketAddress.resolveForListening(host: address.host, port: address.port) {
    case .success(let found): resolved = found
    case .failure(let error):
      throw Failure(
        description:
          "cannot serve on \(address): the host \(address.host) does not resolve "
          + "(\(error)); give an address of this machine")
    }
    var flags = MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
    if resolved.family == .ipv6 {
      // An IPv4-mapped address (::ffff:127.0.0.1) binds only with IPV6_V6ONLY
      // off, which libmicrohttpd sets unless asked for both stacks.
      flags |= resolved.isIPv4Mapped ? MHD_USE_DUAL_STACK.rawValue : MHD_USE_IPv6.rawValue
    }
    // The daemon's `cls` is the box, unretained: this object holds it and
    // stops the daemon before it goes.
    let box = ServerBox()
    self.box = box
    let started = Errno.capture {
      resolved.withSockaddr { address in
        tilt_mhd_start(
          flags, address, Requests.acceptPolicy, Requests.access, Requests.completed,
          Requests.notify, Unmanaged.passUnretained(box).toOpaque())
      }
    }
    guard let daemon = started.value else {
      let why = started.errno?.message ?? "libmicrohttpd refused"
      throw Failure(
        description:
          "cannot serve on \(address): \(why); pick another PORT (0 picks a free one) "
          + "or an address of this machine")
    }
    self.daemon = daemon
    epollDescriptor = tilt_mhd_epoll_fd(daemon)
    let port = UInt16(truncatingIfNeeded: tilt_mhd_bound_port(daemon))
    self.address = ServeAddress(host: address.host, port: port == 0 ? address.port : port)
    // Loopback or not is what the kernel bound, not how HOST was spelled.
    let loopback = (try? SocketAddress.bound(to: tilt_mhd_listen_fd(daemon)))?.isLoopback ?? false
    access = Access(
      loopback: loopback, token: token ?? (loopback ? nil : Access.randomToken()),
      port: self.address.port, givenHost: address.host)
    box.server = self
  }

  deinit { close() }

  // MARK: The loop

  /// The descriptors to poll for input: libmicrohttpd's epoll descriptor and
  /// the sockets of suspended viewers (to notice a viewer that hangs up).
  public var pollDescriptors: [Int32] {
    guard daemon != nil else { return [] }
    var fds = [epollDescriptor]
    for viewer in order where viewer.suspended && viewer.watchSocket && !viewer.closing {
      fds.append(viewer.socket)
    }
    return fds
  }

  /// When the server needs to run without input, or nil: `MHD_get_timeout`,
  /// or the first deadline of an unfinished request; nil at rest (streams
  /// have no deadline).
  public var deadline: MonotonicInstant? {
    guard let daemon else { return nil }
    if runAgain { return .now }
    var first = connections.values.lazy.filter { !$0.cut }.compactMap(\.deadline).min()
    var milliseconds: UInt64 = 0
    if MHD_get_timeout(daemon, &milliseconds) == .YES {
      let mhd = MonotonicInstant.now + .milliseconds(Int64(clamping: milliseconds))
      first = min(first ?? mhd, mhd)
    }
    return first
  }

  /// Handles what is ready: viewers that hung up, then libmicrohttpd's work.
  public func service(ready: Set<Int32>) throws {
    guard daemon != nil else { return }
    for viewer in order where viewer.suspended && ready.contains(viewer.socket) {
      let peek = Socket.peek(viewer.socket)
      trace(
        "viewer \(viewer.id.prefix(6)) socket \(viewer.socket) ready while suspended: peek \(peek)"
      )
      switch peek {
      case .closed: end(viewer)
      case .data: viewer.watchSocket = false
      case .nothing: break
      }
    }
    let now = MonotonicInstant.now
    for connection in connections.values where !connection.cut {
      if let deadline = connection.deadline, deadline <= now {
        trace("connection \(connection.serial) from \(connection.peer) cut: not finished in time")
        connection.cutOff()
        timedOutConnections += 1
      }
    }
    run()
  }

  // MARK: Connections

  /// A new connection from `peer`: whether to take it. At a limit, the
  /// oldest unfinished connection of the same address (or, at the overall
  /// limit, of any) is cut to make room; with none, the new one is refused.
  func admit(_ peer: PeerKey?) -> Bool {
    let live = connections.values.filter { !$0.cut }
    func makeRoom(among candidates: [TrackedConnection]) -> Bool {
      guard
        let oldest = candidates.filter({ $0.deadline != nil }).min(by: { $0.serial < $1.serial })
      else {
        refusedConnections += 1
        return false
      }
      trace("connection from \(oldest.peer) cut to make room")
      oldest.cutOff()
      evictedConnections += 1
      return true
    }
    if let peer {
      let mine = live.filter { $0.peer == peer }
      if mine.count >= limits.connectionsPerAddress { return makeRoom(among: mine) }
    }
    if live.count >= limits.connections { return makeRoom(among: live) }
    return true
  }

  func connectionOpened(_ handle: OpaquePointer) {
    connectionSerial += 1
    let peer = PeerKey(tilt_mhd_client_address(handle)) ?? PeerKey(bytes: [])
    connections[handle] = TrackedConnection(
      handle: handle, socket: tilt_mhd_connection_fd(handle), peer: peer,
      deadline: .now + limits.requestTime, serial: connectionSerial)
    openConnections = connections.count
  }

  func connectionClosed(_ handle: OpaquePointer) {
    if let c = connections[handle] {
      trace("connection \(c.serial) from \(c.peer) closed\(c.cut ? " (cut)" : "")")
    }
    connections[handle] = nil
    openConnections = connections.count
  }

  /// A request has ended: the connection, kept alive, has the same time
  /// for its next one.
  func requestEnded(_ handle: OpaquePointer) {
    connections[handle]?.deadline = .now + limits.requestTime
  }

  /// Sends one contract §4.1 frame line (as the jsonl sink writes it, newline or
  /// not) to every viewer as one `data:` event.
  public func broadcast<Line: Collection>(frameJSON line: Line) where Line.Element == UInt8 {
    guard daemon != nil, !order.isEmpty else { return }
    var event: [UInt8] = Array("data: ".utf8)
    event.reserveCapacity(line.count + 8)
    event.append(contentsOf: line)
    while let last = event.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") {
      event.removeLast()
    }
    event.append(contentsOf: [UInt8(ascii: "\n"), UInt8(ascii: "\n")])
    for viewer in order where !viewer.closing {
      let before = viewer.dropped
      viewer.enqueue(event)
      droppedEvents += viewer.dropped - before
      wake(viewer)
    }
    run()
  }

  /// Sends `frame` to every viewer, encoded as the jsonl sink encodes it.
  public func broadcast(_ frame: CardFrame) {
    lastFrame = frame
    guard !order.isEmpty else { return }
    var line: [UInt8] = []
    encoder.encode(frame, into: &line)
    broadcast(frameJSON: line)
  }

  /// A served replay reached the end of its recording at source time `t`
  /// (seconds): every viewer gets `event: end` with `data: {"t": T}` (contract
  /// §6.2), and a viewer that comes later gets the last frame and that event
  /// after its `viewer` event, so its page shows the end, not a blank card.
  /// The streams stay open: the server serves on until it is closed.
  public func broadcastEnd(at t: Double) {
    // Microseconds, as the frames' `t`; a replay's time is never negative.
    let micro = Int((max(t, 0).isFinite ? max(t, 0) : 0) * 1e6 + 0.5)
    let fraction = String(micro % 1_000_000)
    let time =
      "\(micro / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    let event = Array("event: end\ndata: {\"t\": \(time)}\n\n".utf8)
    endEvent = event
    for viewer in order where !viewer.closing {
      viewer.enqueue(event)
      wake(viewer)
    }
    run()
  }

  /// The last frame broadcast, and the end event once the replay ended:
  /// what a viewer that comes after the end is sent first.
  private var lastFrame: CardFrame?
  private var endEvent: [UInt8]?

  /// Ends every stream and stops the daemon; the descriptors are closed.
  /// The callbacks are not called from here on.
  public func close() {
    guard let daemon else { return }
    onControl = nil
    onVisibilityChange = nil
    for viewer in order { end(viewer) }
    run()
    for viewer in order where viewer.suspended {
      viewer.suspended = false
      MHD_resume_connection(viewer.connection)
    }
    MHD_stop_daemon(daemon)
    self.daemon = nil
    box.server = nil
  }

  // MARK: Viewers

  private func run() {
    guard let daemon else { return }
    if running {
      runAgain = true
      return
    }
    running = true
    repeat {
      runAgain = false
      _ = MHD_run(daemon)
      // Resumes asked for inside MHD_run happen now: a viewer whose content
      // reader suspended it in the same MHD_run may not be suspended yet, and
      // resuming it then would be lost, leaving its stream asleep for good.
      let woken = pendingWakes
      pendingWakes = []
      for viewer in woken where viewer.suspended {
        viewer.suspended = false
        MHD_resume_connection(viewer.connection)
        runAgain = true
      }
      // The user's callbacks for what the requests asked run outside
      // MHD_run too: the frames they make are broadcast as any other.
      if !pendingCallbacks.isEmpty {
        let callbacks = pendingCallbacks
        pendingCallbacks = []
        running = false
        callbacks.forEach { $0() }
        running = true
        runAgain = true
      }
    } while runAgain
    running = false
  }

  /// Calls `callback` now, or once the current MHD_run has returned.
  func notify(_ callback: @escaping () -> Void) {
    if running {
      pendingCallbacks.append(callback)
    } else {
      callback()
    }
  }

  private func wake(_ viewer: Viewer) {
    guard viewer.suspended else { return }
    if running {
      pendingWakes.append(viewer)
      runAgain = true
    } else {
      viewer.suspended = false
      MHD_resume_connection(viewer.connection)
    }
  }

  /// Ends `viewer`'s stream: its content reader reports an error, so
  /// libmicrohttpd closes the connection.
  private func end(_ viewer: Viewer) {
    guard !viewer.closing else { return }
    viewer.closing = true
    wake(viewer)
    updateVisibility()
  }

  func addViewer(connection: OpaquePointer) -> Viewer {
    var id = ""
    repeat {
      id = (0..<2).map { _ in hex(generator.next() as UInt64) }.joined()
    } while viewers[id] != nil
    let viewer = Viewer(
      id: id, connection: connection, socket: tilt_mhd_connection_fd(connection),
      limit: limits.queuedEvents)
    viewer.enqueue(Array("event: viewer\ndata: {\"id\": \"\(id)\"}\n\n".utf8))
    if let endEvent {
      if let lastFrame {
        var line: [UInt8] = Array("data: ".utf8)
        encoder.encode(lastFrame, into: &line)
        while line.last == UInt8(ascii: "\n") { line.removeLast() }
        viewer.enqueue(line + Array("\n\n".utf8))
      }
      viewer.enqueue(endEvent)
    }
    viewers[id] = viewer
    order.append(viewer)
    trace("viewer \(id.prefix(6)) added, socket \(viewer.socket)")
    updateVisibility()
    return viewer
  }

  func removeViewer(_ viewer: Viewer) {
    guard viewers[viewer.id] === viewer else { return }
    trace(
      "viewer \(viewer.id.prefix(6)) removed (closing \(viewer.closing), dropped \(viewer.dropped))"
    )
    viewers[viewer.id] = nil
    order.removeAll { $0 === viewer }
    updateVisibility()
  }

  func setVisible(_ visible: Bool, viewer: Viewer) {
    viewer.visible = visible
    updateVisibility()
  }

  private func updateVisibility() {
    let now = order.contains { !$0.closing && $0.visible }
    guard now != anyViewerVisible else { return }
    anyViewerVisible = now
    notify { [weak self] in self?.onVisibilityChange?(now) }
  }

  /// The content reader of a viewer's stream.
  func read(_ viewer: Viewer, into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
    if viewer.closing { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR
    let n = viewer.read(into: buffer, capacity: capacity)
    if n > 0 { return n }
    // Nothing to send until the next frame: sleep, without a timer.
    viewer.suspended = true
    MHD_suspend_connection(viewer.connection)
    return 0
  }

  func stateJSON() -> String {
    let s = status()
    return "{\"viewers\": \(viewerCount), \"visible\": \(visibleViewerCount), "
      + "\"device\": \"\(s.deviceOpen ? "open" : "closed")\", \"state\": \"\(s.state.rawValue)\"}"
  }
}

private func hex(_ value: UInt64) -> String {
  let s = String(value, radix: 16)
  return String(repeating: "0", count: 16 - s.count) + s
}

/// What libmicrohttpd's callbacks get as `cls`: the server, once started.
final class ServerBox {
  weak var server: CardServer?
}
