import PollLoop
import SystemCalls

/// An IIO buffer's rate measured as a participant of an app's loop: add it
/// to an `EventLoop`'s participants and it reads the buffer until its time
/// is up, then calls its completion once with the rate (or the read's
/// error) and goes quiet (no descriptor, no deadline): remove it then.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
public final class IIORateMeasurement: LoopParticipant {
  /// The rate of the scans read, or why reading failed, once the time is up.
  public private(set) var outcome: Result<IIORate, IIOError>?
  private let stream: IIOStream
  private let descriptor: Int32
  private let end: MonotonicInstant
  private var timestamps: [Int64] = []
  private let completion: (Result<IIORate, IIOError>) -> Void

  init(
    stream: IIOStream, descriptor: Int32, seconds: Double,
    completion: @escaping (Result<IIORate, IIOError>) -> Void
  ) {
    self.stream = stream
    self.descriptor = descriptor
    self.completion = completion
    end = .now + .seconds(seconds)
  }

  /// True once the completion has been called.
  public var isFinished: Bool { outcome != nil }
  public var pollDescriptors: [Int32] { isFinished ? [] : [descriptor] }
  public var deadline: MonotonicInstant? { isFinished ? nil : end }

  public func service(ready: Set<Int32>) throws {
    guard !isFinished else { return }
    do throws(IIOError) {
      if ready.contains(descriptor) { timestamps += try stream.read().map(\.timestampNanoseconds) }
    } catch {
      return finish(.failure(error))
    }
    if end <= .now { finish(.success(IIORate(timestampsNanoseconds: timestamps))) }
  }

  private func finish(_ outcome: Result<IIORate, IIOError>) {
    self.outcome = outcome
    completion(outcome)
  }
}

extension IIOStream {
  /// The measurement of ``measureRate(seconds:)`` as a participant of the
  /// app's loop, starting now; `nil` for a polled stream (its rate is the poller's).
  public func rateMeasurement(
    seconds: Double, completion: @escaping (Result<IIORate, IIOError>) -> Void = { _ in }
  ) -> IIORateMeasurement? {
    guard let fileDescriptor else { return nil }
    return IIORateMeasurement(
      stream: self, descriptor: fileDescriptor, seconds: seconds, completion: completion)
  }

  /// Reads the buffer for `seconds` of wall time on a loop of its own (a
  /// ``rateMeasurement(seconds:completion:)``) and measures its scans'
  /// timing; `nil` for a polled stream (its rate is the poller's).
  public func measureRate(seconds: Double) throws -> IIORate? {
    guard let measurement = rateMeasurement(seconds: seconds) else { return nil }
    let loop = try EventLoop()
    defer { loop.end() }
    while true {
      if let outcome = measurement.outcome { return try outcome.get() }
      try loop.run([measurement], done: { measurement.isFinished })
    }
  }
}
