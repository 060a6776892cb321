import Foundation
import SystemCalls

/// The thread behind an update sequence: it runs the sequence's loop until
/// the end or the consumer's cancellation; what the loop opened is closed
/// before it says the loop has ended.
enum UpdateThread {
  static func start<Element: Sendable>(
    channel: UpdateChannel<Element>,
    loop: @escaping @Sendable (@escaping @Sendable (Element) -> Void, UpdateStop) throws -> Void
  ) {
    let thread = Thread {
      do {
        // Everything the loop opened is released when this call returns.
        let stop = UpdateStop(
          wake: try channel.wake.get(), cancelled: { channel.isCancelled },
          hasRoom: { channel.hasRoom })
        if !stop.isCancelled { try loop({ channel.send($0) }, stop) }
        channel.finish(throwing: nil)
      } catch {
        channel.finish(throwing: error)
      }
    }
    thread.name = "tilt updates"
    thread.start()
  }
}

/// A loop participant that ends the loop when the consumer has gone: the
/// cancellation, on the consumer's side, writes its wake pipe, and
/// ``onCancel`` asks the loop's owner to end. The same pipe wakes the loop
/// when a consumer that had no room takes an update (``hasRoom``).
///
/// Not thread-safe (not `Sendable`): it lives on the loop's thread.
package final class UpdateStop: LoopParticipant {
  private let wake: WakePipe
  private let cancelled: @Sendable () -> Bool
  /// Whether the loop may read more of its source now: false while a
  /// consumer that paces a replay (``UpdateBuffering/waitsForConsumer(_:)``)
  /// has no room.
  package let hasRoom: @Sendable () -> Bool
  /// Asks the loop's owner to end (its `requestEnd()`).
  package var onCancel: (() -> Void)?

  init(
    wake: WakePipe, cancelled: @escaping @Sendable () -> Bool,
    hasRoom: @escaping @Sendable () -> Bool
  ) {
    self.wake = wake
    self.cancelled = cancelled
    self.hasRoom = hasRoom
  }

  /// True once the consumer has gone.
  package var isCancelled: Bool { cancelled() }

  package var pollDescriptors: [Int32] { [wake.fileDescriptor] }
  package var deadline: MonotonicInstant? { nil }

  package func service(ready: Set<Int32>) throws {
    guard ready.contains(wake.fileDescriptor) else { return }
    wake.drain()
    if isCancelled { onCancel?() }
  }

  /// `input` with its recording ending early once the consumer has gone: a
  /// replay as fast as it goes may not sleep in the loop's `poll()`, so it
  /// asks at each step.
  package func untilCancelled(
    _ input: MotionInput, configuration: DeviceMotionConfiguration
  ) -> MotionInput {
    switch input {
    case .device: return input
    case .recording(let path, let speed):
      return .source(speed: speed) { [cancelled] in
        UntilCancelled(
          try Recording.open(path: path, configuration: configuration), cancelled: cancelled)
      }
    case .source(let speed, let make):
      return .source(speed: speed) { [cancelled] in
        UntilCancelled(try make(), cancelled: cancelled)
      }
    }
  }
}

/// A motion source that ends early when the consumer has gone.
package struct UntilCancelled: MotionSource {
  private var source: any MotionSource
  private let cancelled: @Sendable () -> Bool

  init(_ source: any MotionSource, cancelled: @escaping @Sendable () -> Bool) {
    self.source = source
    self.cancelled = cancelled
  }

  package var capabilities: MotionCapabilities { source.capabilities }
  package var notes: [String] { source.notes }

  package mutating func next() throws -> MotionStep? {
    cancelled() ? nil : try source.next()
  }
}
