import SystemCalls

/// A quantity measured over a span of wall time as a participant of a loop:
/// add it to an `EventLoop`'s participants (beside a server, another
/// device…) and it reads what its reader watches until its time is up, then
/// calls its completion once with the value or the first error, and goes
/// quiet (no descriptor, no deadline): remove it then. An error ends the
/// measurement, never the loop. A device's rate (Evdev, IIO) and a
/// gyroscope's bias (Motion) are measured this way.
///
/// Its time starts when it is made.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
public final class LoopMeasurement<Value>: LoopParticipant {
  /// Seconds of wall time measured.
  public let seconds: Double
  /// The value or the error, once the measurement has ended.
  public private(set) var outcome: Result<Value, any Error>?
  private let end: MonotonicInstant
  private let descriptors: () -> [Int32]
  private let readerDeadline: () -> MonotonicInstant?
  private let read: (Set<Int32>) throws -> Void
  private let value: () throws -> Value
  private let progress: (Double) -> Void
  private let completion: (Result<Value, any Error>) -> Void

  /// Watches `descriptors` (and wakes at the reader's own `deadline`, a
  /// polled sensor's next read), calls `read` with the ready ones at each
  /// turn, then `progress` with the fraction of the time gone (0…1); once
  /// the time is up, `value` is the outcome.
  public init(
    seconds: Double, descriptors: @escaping () -> [Int32],
    deadline: @escaping () -> MonotonicInstant? = { nil },
    read: @escaping (Set<Int32>) throws -> Void, value: @escaping () throws -> Value,
    progress: @escaping (Double) -> Void = { _ in },
    completion: @escaping (Result<Value, any Error>) -> Void = { _ in }
  ) {
    self.seconds = seconds
    self.descriptors = descriptors
    readerDeadline = deadline
    self.read = read
    self.value = value
    self.progress = progress
    self.completion = completion
    end = .now + .seconds(seconds)
    progress(0)
  }

  /// True once the completion has been called.
  public var isFinished: Bool { outcome != nil }

  public var pollDescriptors: [Int32] { isFinished ? [] : descriptors() }

  /// The reader's next read, or the end of the measurement.
  public var deadline: MonotonicInstant? {
    isFinished ? nil : [readerDeadline(), end].compactMap { $0 }.min()
  }

  public func service(ready: Set<Int32>) throws {
    guard !isFinished else { return }
    do {
      try read(ready)
      let left = MonotonicInstant.now.duration(to: end).seconds
      guard left <= 0 else { return progress(min(1, max(0, 1 - left / seconds))) }
      progress(1)
      finish(Result { try value() })
    } catch {
      finish(.failure(error))
    }
  }

  private func finish(_ outcome: Result<Value, any Error>) {
    self.outcome = outcome
    completion(outcome)
  }

  /// Turns a loop of its own until the time is up: the value, or the error.
  public func run() throws -> Value {
    let loop = try EventLoop()
    defer { loop.end() }
    while true {
      if let outcome { return try outcome.get() }
      try loop.run([self], done: { [unowned self] in isFinished })
    }
  }
}
