import SystemCalls

/// The one run loop under every wait of tilt (live, a paced replay, record,
/// a device probe, the live page), as swift-nio's `EventLoop` and
/// Foundation's `RunLoop` are: one thread, one `poll()` over the
/// ``participants``' descriptors and a self-pipe, deadlines on the monotonic
/// clock (``MonotonicInstant``), and the signals it was asked to handle.
///
/// Signals are handled only when asked (`init(handling:)`); the handlers are
/// installed with `sigaction` and ``end()`` (or the end of the loop) puts
/// back what was there, the thread's signal mask too. A signal that arrived
/// and was not taken by a turn is raised again then, for the handler that was
/// there before: none is lost.
///
/// Not thread-safe (not `Sendable`): use it from one thread; only
/// ``requestEnd()`` may be called from another (or ``endHandle``'s, which is
/// `Sendable`).
public final class EventLoop {
  /// A signal the loop can handle.
  public struct Signal: Hashable, Sendable, CustomStringConvertible {
    /// The C signal number.
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// `SIGINT` (Ctrl-C).
    public static let interrupt = Signal(rawValue: SignalNumber.interrupt)
    /// `SIGTERM`.
    public static let terminate = Signal(rawValue: SignalNumber.terminate)
    /// `SIGWINCH`: the terminal changed size.
    public static let windowChange = Signal(rawValue: SignalNumber.windowChange)
    /// `SIGUSR1`.
    public static let user1 = Signal(rawValue: SignalNumber.user1)
    public var description: String {
      switch self {
      case .interrupt: "SIGINT"
      case .terminate: "SIGTERM"
      case .windowChange: "SIGWINCH"
      case .user1: "SIGUSR1"
      default: "signal \(rawValue)"
      }
    }
  }

  /// What a turn saw besides its participants' descriptors and deadlines.
  public enum Event: Hashable, Sendable {
    /// A signal the loop handles arrived.
    case signal(Signal)
    /// ``requestEnd()`` was called.
    case endRequested
  }

  /// What shares the loop's `poll()`, served in this order.
  public var participants: [any LoopParticipant] = []
  /// The signals the loop handles (empty: none, the process keeps its own).
  public let signals: Set<Signal>
  private let pipe: SignalPipe
  private var ended = false

  /// A loop that handles `signals` until it ends; none by default.
  public init(handling signals: Set<Signal> = []) throws {
    self.signals = signals
    pipe = try SignalPipe(signals: signals.map(\.rawValue).sorted())
  }

  /// Waits until a participant's descriptor is readable, a participant's
  /// deadline or `deadline` comes, a handled signal arrives or
  /// ``requestEnd()`` is called; then serves the participants that are due.
  /// `extra` descriptors are watched too, and those that are ready are
  /// returned with the events (a device the caller reads itself).
  @discardableResult
  public func turn(until deadline: MonotonicInstant? = nil, watching extra: [Int32] = [])
    throws -> (events: [Event], ready: Set<Int32>)
  {
    let turn = ParticipantTurn(participants)
    let wake = [deadline, turn.deadline].compactMap { $0 }.min()
    let ready = try Poller.wait(
      for: [pipe.fileDescriptor] + extra + turn.descriptors, until: wake)
    var events: [Event] = []
    if ready.contains(pipe.fileDescriptor) {
      for number in pipe.drain() {
        events.append(
          number == SignalPipe.wakeByte ? .endRequested : .signal(Signal(rawValue: number)))
      }
    }
    try turn.serve(ready: ready)
    return (events, ready.intersection(extra))
  }

  /// Serves what is ready now, without waiting.
  @discardableResult
  public func glance() throws -> [Event] {
    try turn(until: .now - .seconds(1)).events
  }

  /// Asks the loop to end: the turn under way (or the next) returns
  /// ``Event/endRequested``. Safe from any thread and from a signal handler.
  public func requestEnd() { pipe.wake() }

  /// A handle that asks this loop to end, to hand to another thread or task
  /// (`Sendable`): it keeps the loop's pipe open, so a request after the
  /// loop is gone is harmless.
  public var endHandle: EndHandle { EndHandle(waker: pipe.waker) }

  /// Asks one loop to end from any thread (``EventLoop/endHandle``).
  public final class EndHandle: Sendable {
    private let waker: SignalPipe.Waker
    init(waker: SignalPipe.Waker) { self.waker = waker }
    /// The loop's turn under way (or its next) returns ``Event/endRequested``.
    public func requestEnd() { waker.wake() }
  }

  /// Puts back the signal handling the loop changed. Safe to call twice;
  /// the loop handles no signal afterwards.
  public func end() {
    guard !ended else { return }
    ended = true
    pipe.restore()
  }

  deinit { end() }
}
