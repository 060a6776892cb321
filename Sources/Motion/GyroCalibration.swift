import Attitude
import PollLoop

/// A ``GyroCalibrator``'s measurement as a participant of an app's loop
/// (PollLoop's `LoopMeasurement`): it reads the device until its time is
/// up, then calls its completion once with the result or the error (the
/// device moved, went away): an error ends the measurement, never the loop.
///
/// The measurement's time starts when it is made
/// (``GyroCalibrator/measurement(seconds:progress:completion:)``).
public typealias GyroCalibration = LoopMeasurement<GyroCalibrator.Result>

extension GyroCalibrator {
  /// The measurement of ``measure(seconds:progress:)`` as a participant of
  /// the app's loop: it starts now, calls `progress` with the fraction done
  /// (0…1) as samples arrive, and `completion` once with the result or the
  /// error (the failures of ``measure(seconds:progress:)``).
  public func measurement(
    seconds: Double, progress: @escaping (Double) -> Void = { _ in },
    completion: @escaping (Swift.Result<Result, any Error>) -> Void = { _ in }
  ) -> GyroCalibration {
    var calibration = GyroBiasCalibration()
    return GyroCalibration(
      seconds: seconds, descriptors: { [samples] in samples.pollDescriptors },
      deadline: { [samples] in samples.deadline },
      read: { [self] ready in
        for motion in try samples.read(ready: ready) { try add(motion, to: &calibration) }
      },
      value: { [self] in try result(of: calibration, seconds: seconds) },
      progress: progress, completion: completion)
  }

  /// Reads the device for `seconds` of wall time on a loop of its own (a
  /// ``measurement(seconds:progress:completion:)``), calling `progress` with
  /// the fraction done (0…1) as samples arrive. Fails when the device moved
  /// (its readings varied: motion is variation, not size), read a steady
  /// rate beyond ``maximumBiasDegreesPerSecond`` (a turn), went away or sent
  /// nothing.
  public func measure(seconds: Double, progress: (Double) -> Void = { _ in }) throws -> Result {
    try withoutActuallyEscaping(progress) { progress in
      try measurement(seconds: seconds, progress: progress).run()
    }
  }
}
