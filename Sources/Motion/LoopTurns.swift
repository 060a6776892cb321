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

/// A participant made of three closures: what a manager with a loop of its
/// own puts first in that loop (its device, read in turn).
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
package final class ClosureParticipant: LoopParticipant {
  private let descriptors: () -> [Int32]
  private let due: () -> MonotonicInstant?
  private let serve: (Set<Int32>) throws -> Void

  package init(
    descriptors: @escaping () -> [Int32], deadline: @escaping () -> MonotonicInstant?,
    service: @escaping (Set<Int32>) throws -> Void
  ) {
    self.descriptors = descriptors
    due = deadline
    serve = service
  }

  package var pollDescriptors: [Int32] { descriptors() }
  package var deadline: MonotonicInstant? { due() }
  package func service(ready: Set<Int32>) throws { try serve(ready) }
}

extension EventLoop {
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
