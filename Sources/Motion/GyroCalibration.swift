import Attitude
import SystemCalls

/// A ``GyroCalibrator``'s measurement as a participant of an app's loop:
/// add it to an `EventLoop`'s participants (beside a server, another
/// device…) and it reads the device until its time is up, then calls its
/// completion once with the result or the error, and goes quiet (no
/// descriptor, no deadline): remove it then. An error (the device moved,
/// went away) ends the measurement, never the loop.
///
/// The measurement's time starts when it is made
/// (``GyroCalibrator/measurement(seconds:progress:completion:)``).
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
public final class GyroCalibration: LoopParticipant {
  /// Seconds of wall time measured.
  public let seconds: Double
  /// The result or the error, once the measurement has ended.
  public private(set) var outcome: Swift.Result<GyroCalibrator.Result, any Error>?
  private let calibrator: GyroCalibrator
  private let end: MonotonicInstant
  private var calibration = GyroBiasCalibration()
  private let progress: (Double) -> Void
  private let completion: (Swift.Result<GyroCalibrator.Result, any Error>) -> Void

  init(
    calibrator: GyroCalibrator, seconds: Double, progress: @escaping (Double) -> Void,
    completion: @escaping (Swift.Result<GyroCalibrator.Result, any Error>) -> Void
  ) {
    self.calibrator = calibrator
    self.seconds = seconds
    self.progress = progress
    self.completion = completion
    end = .now + .seconds(seconds)
    progress(0)
  }

  /// True once the completion has been called.
  public var isFinished: Bool { outcome != nil }

  public var pollDescriptors: [Int32] { isFinished ? [] : calibrator.samples.pollDescriptors }

  /// The sensor's next read (a polled one), or the end of the measurement.
  public var deadline: MonotonicInstant? {
    isFinished ? nil : [calibrator.samples.deadline, end].compactMap { $0 }.min()
  }

  public func service(ready: Set<Int32>) throws {
    guard !isFinished else { return }
    do {
      for motion in try calibrator.samples.read(ready: ready) {
        try calibrator.add(motion, to: &calibration)
      }
      let left = MonotonicInstant.now.duration(to: end).seconds
      guard left <= 0 else { return progress(min(1, max(0, 1 - left / seconds))) }
      progress(1)
      finish(Swift.Result { try calibrator.result(of: calibration, seconds: seconds) })
    } catch {
      finish(.failure(error))
    }
  }

  private func finish(_ outcome: Swift.Result<GyroCalibrator.Result, any Error>) {
    self.outcome = outcome
    completion(outcome)
  }
}
