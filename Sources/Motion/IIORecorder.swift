import IIO
import PollLoop

/// An IIO sensor recorded into contract §2.3's CSV log (card axes, g and rad/s):
/// the samples a live run would feed its processor, timed as it times them.
/// The log is written under a temporary name in the same directory until
/// complete, as ``EvemuRecorder`` writes: the path never holds half a log.
public struct IIORecorder {
  /// How a recording ended.
  public struct Outcome: Hashable, Sendable {
    /// Rows written.
    public var samples: Int
    /// Whether the sensor went away (the log ends there).
    public var sensorWentAway: Bool
  }

  /// The sensor (or the accelerometer and gyroscope of one hub).
  public let imu: IIOIMU
  /// Where the log goes.
  public let outputPath: String
  /// Seconds to record; `nil` until a signal.
  public let duration: Double?

  /// A recorder of `imu` into `outputPath`, for `duration` seconds or until a signal.
  public init(imu: IIOIMU, outputPath: String, duration: Double?) {
    self.imu = imu
    self.outputPath = outputPath
    self.duration = duration
  }

  /// Records until the duration ends, SIGINT or SIGTERM, or the sensor goes
  /// away. `onStart` is called once everything is open, before the first
  /// sample; `onNote` hears what the device notices.
  public func run(onStart: () -> Void, onNote: @escaping (MotionNote) -> Void) throws -> Outcome {
    let file = try FileUnderTemporaryName(path: outputPath)
    let rows = CSVRows(file: file, hasGyroscope: imu.gyroscope != nil)
    let device = IIOMotionDevice(imu: imu, onNote: onNote)
    let manager = try DeviceMotionManager(device: device, processor: rows, onNote: onNote)
    if let duration {
      manager.participants.append(
        EndAfter(seconds: duration) { [unowned manager] in
          manager.requestEnd()
        })
    }
    onStart()
    var wentAway = false
    do {
      do {
        try manager.run()
      } catch let error as MotionError {
        guard case .deviceGone = error else { throw error }
        wentAway = true
      }
      try file.finish()
    } catch {
      file.abandon()
      throw error
    }
    return Outcome(samples: rows.count, sensorWentAway: wentAway)
  }
}
