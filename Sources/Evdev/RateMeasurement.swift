import PollLoop
import SensorData
import SystemCalls

/// A device's rate (``RateProbe``) measured as a participant of an app's
/// loop (PollLoop's `LoopMeasurement`): it reads the frames of its
/// descriptor until its time is up, then calls its completion once with the
/// report or the read's error.
public typealias RateMeasurement = LoopMeasurement<RateReport>

extension LoopMeasurement where Value == RateReport {
  /// Reads `readFrames()` whenever `descriptor` is readable, for `seconds`
  /// of wall time from now, handing each read's frames to `onFrames` too
  /// (a decoder of the same device).
  public convenience init(
    descriptor: Int32, seconds: Double, readFrames: @escaping () throws -> [Frame],
    onFrames: @escaping ([Frame]) -> Void = { _ in },
    completion: @escaping (Result<RateReport, any Error>) -> Void = { _ in }
  ) {
    var probe = RateProbe()
    self.init(
      seconds: seconds, descriptors: { [descriptor] },
      read: { ready in
        guard ready.contains(descriptor) else { return }
        let frames = try readFrames()
        probe.add(frames)
        onFrames(frames)
      },
      value: { probe.report }, completion: completion)
  }
}

extension LiveDevice {
  /// The device's rate measured on the app's loop for `seconds` from now.
  public func rateMeasurement(
    seconds: Double, onFrames: @escaping ([Frame]) -> Void = { _ in },
    completion: @escaping (Result<RateReport, any Error>) -> Void = { _ in }
  ) -> RateMeasurement {
    RateMeasurement(
      descriptor: fileDescriptor, seconds: seconds, readFrames: { [self] in try readFrames() },
      onFrames: onFrames, completion: completion)
  }
}
