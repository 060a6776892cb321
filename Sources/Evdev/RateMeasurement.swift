import PollLoop
import SensorData
import SystemCalls

/// A device's rate (``RateProbe``) measured as a participant of an app's
/// loop: add it to an `EventLoop`'s participants and it reads the frames
/// of its descriptor until its time is up, then calls its completion once
/// with the report (or the read's error) and goes quiet (no descriptor, no
/// deadline): remove it then.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
public final class RateMeasurement: LoopParticipant {
  /// The rate of the frames read, or why reading failed, once the time is up.
  public private(set) var outcome: Result<RateReport, any Error>?
  /// Called with the frames of each read, in order (a decoder of the same device).
  public var onFrames: ([Frame]) -> Void = { _ in }
  private let descriptor: Int32
  private let readFrames: () throws -> [Frame]
  private let end: MonotonicInstant
  private var probe = RateProbe()
  private let completion: (Result<RateReport, any Error>) -> Void

  /// Reads `readFrames()` whenever `descriptor` is readable, for `seconds`
  /// of wall time from now.
  public init(
    descriptor: Int32, seconds: Double, readFrames: @escaping () throws -> [Frame],
    completion: @escaping (Result<RateReport, any Error>) -> Void = { _ in }
  ) {
    self.descriptor = descriptor
    self.readFrames = readFrames
    self.completion = completion
    end = .now + .seconds(seconds)
  }

  /// True once the completion has been called.
  public var isFinished: Bool { outcome != nil }
  public var pollDescriptors: [Int32] { isFinished ? [] : [descriptor] }
  public var deadline: MonotonicInstant? { isFinished ? nil : end }

  public func service(ready: Set<Int32>) throws {
    guard !isFinished else { return }
    if ready.contains(descriptor) {
      do {
        let frames = try readFrames()
        probe.add(frames)
        onFrames(frames)
      } catch {
        return finish(.failure(error))
      }
    }
    if end <= .now { finish(.success(probe.report)) }
  }

  private func finish(_ outcome: Result<RateReport, any Error>) {
    self.outcome = outcome
    completion(outcome)
  }

  /// Turns a loop of its own until the time is up: the report, or the read's error.
  public func run() throws -> RateReport {
    let loop = try EventLoop()
    defer { loop.end() }
    while true {
      if let outcome { return try outcome.get() }
      try loop.run([self], done: { [unowned self] in isFinished })
    }
  }
}

extension LiveDevice {
  /// The device's rate measured on the app's loop for `seconds` from now.
  public func rateMeasurement(
    seconds: Double, completion: @escaping (Result<RateReport, any Error>) -> Void = { _ in }
  ) -> RateMeasurement {
    RateMeasurement(
      descriptor: fileDescriptor, seconds: seconds, readFrames: { [self] in try readFrames() },
      completion: completion)
  }
}
