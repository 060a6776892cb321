import Dispatch
import Synchronization
import SystemCalls

/// What an update sequence's loop thread and the task iterating it share:
/// the buffering, cancellation, and the loop's end. The stream of updates
/// itself is the iterator's alone: when the iterator is dropped (`break`),
/// the stream ends, which cancels the loop.
package final class UpdateChannel<Element: Sendable>: Sendable {
  private let continuation: AsyncThrowingStream<Element, any Error>.Continuation
  /// Wakes the loop from its `poll()` when the consumer goes away, or why
  /// there is no such pipe (the loop ends with that error at its start).
  package let wake: Result<WakePipe, any Error>
  /// With ``UpdateBuffering/waitsForConsumer(_:)``: one permit per update
  /// the stream may hold.
  private let permits: DispatchSemaphore?
  private let state = Mutex(State())

  private struct State {
    var cancelled = false
    var ended = false
    var waiting: [CheckedContinuation<Void, Never>] = []
  }

  /// A channel and the stream it feeds.
  package static func make(buffering: UpdateBuffering) -> (
    UpdateChannel, AsyncThrowingStream<Element, any Error>
  ) {
    let policy: AsyncThrowingStream<Element, any Error>.Continuation.BufferingPolicy
    var permits: DispatchSemaphore?
    switch buffering {
    case .newest(let count):
      policy = .bufferingNewest(max(1, count))
    case .waitsForConsumer(let count):
      policy = .unbounded
      permits = DispatchSemaphore(value: max(1, count))
    }
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: Element.self, throwing: (any Error).self, bufferingPolicy: policy)
    return (UpdateChannel(continuation: continuation, permits: permits), stream)
  }

  private init(
    continuation: AsyncThrowingStream<Element, any Error>.Continuation,
    permits: DispatchSemaphore?
  ) {
    self.continuation = continuation
    self.permits = permits
    wake = Result { try WakePipe() }
    continuation.onTermination = { [weak self] _ in self?.cancel() }
  }

  /// True once the consumer has gone (cancelled, or the iterator dropped).
  package var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// On the loop's thread: hands `element` to the consumer, first waiting
  /// for room with ``UpdateBuffering/waitsForConsumer(_:)``. False once the
  /// consumer has gone.
  @discardableResult
  package func send(_ element: Element) -> Bool {
    if isCancelled { return false }
    permits?.wait()
    if isCancelled { return false }
    if case .terminated = continuation.yield(element) { return false }
    return true
  }

  /// On the consumer's side: an update was taken, so there is room for one more.
  package func taken() { permits?.signal() }

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
    // Set before the signal: a loop waiting for room wakes and sees it.
    permits?.signal()
    try? wake.get().wake()
  }
}
