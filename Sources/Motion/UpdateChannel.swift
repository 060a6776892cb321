import Synchronization
import SystemCalls

/// What an update sequence's loop thread and the task iterating it share:
/// the buffering, cancellation, and the loop's end. The stream of updates
/// itself is the iterator's alone: when the iterator is dropped (`break`),
/// the stream ends, which cancels the loop.
///
/// The loop's thread never waits here. With ``UpdateBuffering/newest(_:)``
/// the stream drops the oldest update for a new one; with
/// ``UpdateBuffering/waitsForConsumer(_:)`` the loop asks ``hasRoom`` before
/// it reads more of its source, and the consumer's taking an update wakes
/// its `poll()` when room comes back.
package final class UpdateChannel<Element: Sendable>: Sendable {
  private let continuation: AsyncThrowingStream<Element, any Error>.Continuation
  /// Wakes the loop from its `poll()` when the consumer goes away or makes
  /// room, or why there is no such pipe (the loop ends with that error at its start).
  package let wake: Result<WakePipe, any Error>
  /// With ``UpdateBuffering/waitsForConsumer(_:)``: how many updates the
  /// stream may hold before the loop stops reading; `nil` with newest.
  private let room: Int?
  /// With ``UpdateBuffering/newest(_:)``: how many the stream keeps.
  private let newest: Int?
  private let state = Mutex(State())

  private struct State {
    var cancelled = false
    var ended = false
    var waiting: [CheckedContinuation<Void, Never>] = []
    /// Updates in the stream, not yet taken.
    var buffered = 0
    /// The most ``buffered`` has been.
    var mostBuffered = 0
    /// Updates the stream dropped for newer ones.
    var dropped = 0
  }

  /// A channel and the stream it feeds.
  package static func make(buffering: UpdateBuffering) -> (
    UpdateChannel, AsyncThrowingStream<Element, any Error>
  ) {
    let policy: AsyncThrowingStream<Element, any Error>.Continuation.BufferingPolicy
    var room: Int?
    var newest: Int?
    switch buffering {
    case .newest(let count):
      newest = max(1, count)
      policy = .bufferingNewest(max(1, count))
    case .waitsForConsumer(let count):
      // Bounded by the loop, which reads no more once `room` are waiting
      // (past it by at most the updates of one read).
      policy = .unbounded
      room = max(1, count)
    }
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: Element.self, throwing: (any Error).self, bufferingPolicy: policy)
    return (UpdateChannel(continuation: continuation, room: room, newest: newest), stream)
  }

  private init(
    continuation: AsyncThrowingStream<Element, any Error>.Continuation, room: Int?, newest: Int?
  ) {
    self.continuation = continuation
    self.room = room
    self.newest = newest
    wake = Result { try WakePipe() }
    continuation.onTermination = { [weak self] _ in self?.cancel() }
  }

  /// True once the consumer has gone (cancelled, or the iterator dropped).
  package var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// On the loop's thread: whether the loop may read more of its source.
  /// Always with newest; with ``UpdateBuffering/waitsForConsumer(_:)``
  /// while fewer than its count are waiting.
  package var hasRoom: Bool {
    guard let room else { return true }
    return state.withLock { $0.buffered < room }
  }

  /// The most updates the stream has held at once, and how many it dropped.
  package var buffering: (most: Int, dropped: Int) {
    state.withLock { ($0.mostBuffered, $0.dropped) }
  }

  /// On the loop's thread: hands `element` to the consumer, at once. False
  /// once the consumer has gone.
  @discardableResult
  package func send(_ element: Element) -> Bool {
    if isCancelled { return false }
    switch continuation.yield(element) {
    case .terminated: return false
    case .dropped:
      state.withLock { state in
        state.dropped += 1
        state.mostBuffered = max(state.mostBuffered, newest ?? 0)
      }
    case .enqueued(let remaining):
      state.withLock { state in
        state.buffered += 1
        // The stream's own count where it keeps a limit (the consumer may
        // have taken one it has not reported yet).
        let held = newest.map { $0 - remaining } ?? state.buffered
        state.mostBuffered = max(state.mostBuffered, held)
      }
    @unknown default: break
    }
    return true
  }

  /// On the consumer's side: an update was taken. When that makes room for
  /// a loop that stopped reading, its `poll()` is woken.
  package func taken() {
    let madeRoom = state.withLock { state in
      state.buffered = max(0, state.buffered - 1)
      return room.map { state.buffered == $0 - 1 } ?? false
    }
    if madeRoom { try? wake.get().wake() }
  }

  /// On the loop's thread, once the source is closed: the end, or the error.
  package func finish(throwing error: (any Error)?) {
    continuation.finish(throwing: error)
    let waiting = state.withLock { state in
      state.ended = true
      defer { state.waiting = [] }
      return state.waiting
    }
    for waiter in waiting { waiter.resume() }
  }

  /// Returns once the loop has ended and closed its source.
  package func loopEnded() async {
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      let now = state.withLock { state in
        if state.ended { return true }
        state.waiting.append(waiter)
        return false
      }
      if now { waiter.resume() }
    }
  }

  private func cancel() {
    state.withLock { $0.cancelled = true }
    try? wake.get().wake()
  }
}
