extension EventLoop {
  /// Turns the loop with `first` ahead of its own participants and
  /// `participants()`, until `ending()` gives a reason, an end request or a
  /// signal that ends (`requested`); SIGWINCH calls `onWindowChange`.
  /// `afterTurn` ends every turn. The loop's participants are put back.
  package func turns<Ending>(
    first: any LoopParticipant, participants: () -> [any LoopParticipant],
    ending: () -> Ending?, requested: Ending, onWindowChange: () throws -> Void = {},
    afterTurn: () throws -> Void = {}
  ) throws -> Ending {
    let others = self.participants
    defer { self.participants = others }
    while true {
      if let ending = ending() { return ending }
      self.participants = [first] + others + participants()
      for event in try turn().events {
        switch event {
        case .signal(.windowChange): try onWindowChange()
        case .signal, .endRequested: return requested
        }
      }
      try afterTurn()
    }
  }
}

/// A participant made of three closures: what a manager puts first in its
/// loop (its device, read in turn), or a measurement that reads a descriptor.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
public final class ClosureParticipant: LoopParticipant {
  private let descriptors: () -> [Int32]
  private let due: () -> MonotonicInstant?
  private let serve: (Set<Int32>) throws -> Void

  /// `descriptors` and `deadline` are asked before each wait; `service` is
  /// called after it with the ready descriptors (empty at the deadline).
  public init(
    descriptors: @escaping () -> [Int32], deadline: @escaping () -> MonotonicInstant? = { nil },
    service: @escaping (Set<Int32>) throws -> Void
  ) {
    self.descriptors = descriptors
    due = deadline
    serve = service
  }

  public var pollDescriptors: [Int32] { descriptors() }
  public var deadline: MonotonicInstant? { due() }
  public func service(ready: Set<Int32>) throws { try serve(ready) }
}

extension EventLoop {
  /// Why ``run(_:until:done:)`` ended.
  public enum RunEnd: Hashable, Sendable {
    /// `deadline` came.
    case deadline
    /// `done()` said so.
    case done
    /// A handled signal (not SIGWINCH), or an end request.
    case requested
  }

  /// Turns the loop with `participants` (after its own) until `deadline`,
  /// `done()`, a handled signal other than SIGWINCH or an end request: the
  /// way to wait for a while (a measurement, a recording) without a loop of
  /// one's own. The loop's participants are put back.
  @discardableResult
  public func run(
    _ participants: [any LoopParticipant], until deadline: MonotonicInstant? = nil,
    done: () -> Bool = { false }
  ) throws -> RunEnd {
    let others = self.participants
    defer { self.participants = others }
    self.participants = others + participants
    while true {
      if done() { return .done }
      if let deadline, deadline <= .now { return .deadline }
      for event in try turn(until: deadline).events where event != .signal(.windowChange) {
        return .requested
      }
    }
  }

  /// Runs `body` on a loop of its own that handles `signals`, and ends it
  /// after (what it changed in the process put back).
  package static func running<T>(handling signals: Set<Signal>, _ body: (EventLoop) throws -> T)
    throws -> T
  {
    let loop = try EventLoop(handling: signals)
    defer { loop.end() }
    return try body(loop)
  }
}

/// Something that runs on an ``EventLoop`` until it has a reason to end: the
/// motion manager, the card's driver. ``run(endingOn:)`` gives it a loop of
/// its own.
public protocol LoopRunning: AnyObject {
  /// Why a run ended.
  associatedtype Ending
  /// Runs on `loop`, with its participants and signals, until a reason to end.
  func run(on loop: EventLoop) throws -> Ending
}

extension LoopRunning {
  /// ``run(on:)`` on a loop of its own that handles `signals` (SIGINT and
  /// SIGTERM by default). The handlers are installed for the run only: what
  /// was there before is put back.
  @discardableResult
  public func run(endingOn signals: Set<EventLoop.Signal> = [.interrupt, .terminate]) throws
    -> Ending
  {
    try EventLoop.running(handling: signals) { try run(on: $0) }
  }
}
