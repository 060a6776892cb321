import PollLoop
import SystemCalls

/// An IIO buffer's rate measured as a participant of an app's loop
/// (PollLoop's `LoopMeasurement`): it reads the buffer until its time is
/// up, then calls its completion once with the rate or the read's error.
public typealias IIORateMeasurement = LoopMeasurement<IIORate>

extension IIOStream {
  /// The measurement of ``measureRate(seconds:)`` as a participant of the
  /// app's loop, starting now; `nil` for a polled stream (its rate is the poller's).
  public func rateMeasurement(
    seconds: Double, completion: @escaping (Result<IIORate, any Error>) -> Void = { _ in }
  ) -> IIORateMeasurement? {
    guard let descriptor = fileDescriptor else { return nil }
    var timestamps: [Int64] = []
    return IIORateMeasurement(
      seconds: seconds, descriptors: { [descriptor] },
      read: { [self] ready in
        if ready.contains(descriptor) { timestamps += try read().map(\.timestampNanoseconds) }
      },
      value: { IIORate(timestampsNanoseconds: timestamps) }, completion: completion)
  }

  /// Reads the buffer for `seconds` of wall time on a loop of its own (a
  /// ``rateMeasurement(seconds:completion:)``) and measures its scans'
  /// timing; `nil` for a polled stream (its rate is the poller's).
  public func measureRate(seconds: Double) throws -> IIORate? {
    try rateMeasurement(seconds: seconds)?.run()
  }
}
