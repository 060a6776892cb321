import Attitude
import Evdev
import Foundation
import IIO
import SensorData
import SystemCalls

/// Measures a live device's gyroscope bias while it is held still: the device is read for a while, every sample
/// goes into Attitude's ``GyroBiasCalibration``, and the result is what the
/// fusion starts from next time (``GyroBiasStore``).
///
/// Not thread-safe (not `Sendable`): use it from one thread.
public final class GyroCalibrator {
  /// A finished measurement.
  public struct Result: Sendable {
    public var devicePath: String
    public var device: DeviceInfo
    /// As stored: deg/s, card frame.
    public var bias: StoredGyroBias
    /// True when the bias is beyond what the fusion learns by itself
    /// (``largeBiasDegreesPerSecond`` on an axis): live drifts without it.
    public var isLarge: Bool
  }

  /// The largest bias the fusion learns by itself, deg/s on an axis
  /// (``FusionParameters/maximumBias``); a calibration beyond it is large.
  public static let largeBiasDegreesPerSecond = FusionParameters().maximumBias * 180 / .pi
  /// The largest bias measured, deg/s on an axis
  /// (``GyroBiasCalibration/maximumBias``); a steadier rate is a turn.
  public static let maximumBiasDegreesPerSecond = GyroBiasCalibration.maximumBias * 180 / .pi

  public let devicePath: String
  /// The device as the bias store knows it (an IIO IMU: its accelerometer and gyroscope).
  public var info: DeviceInfo { samples.info }
  let samples: any CalibrationSamples

  /// Opens `devicePath`, an evdev node or an IIO sensor (`/dev/iio:deviceN`:
  /// its accelerometer with the gyroscope of its hub); fails when it has no
  /// gyroscope.
  public init(devicePath: String, configuration: DeviceMotionConfiguration = .init()) throws {
    self.devicePath = devicePath
    switch try MotionNode.resolve(devicePath) {
    case .iio(let imu):
      samples = try IIOCalibrationSamples(
        imu: imu, reference: devicePath, configuration: configuration)
    case .evdev(let path):
      samples = try EvdevCalibrationSamples(devicePath: path, configuration: configuration)
    }
  }

  /// Measures `samples` (a test's).
  init(samples: any CalibrationSamples, devicePath: String) {
    self.devicePath = devicePath
    self.samples = samples
  }

  deinit { samples.close() }

  /// Adds a sample; throws when the device moved.
  func add(_ motion: MotionSample, to calibration: inout GyroBiasCalibration) throws {
    calibration.add(motion)
    if calibration.hasMoved {
      throw MotionError.movedDuringCalibration(path: devicePath)
    }
  }

  /// What a measurement of `seconds` found, or why it failed.
  func result(of calibration: GyroBiasCalibration, seconds: Double) throws -> Result {
    if calibration.isBeyondMaximum, let mean = calibration.bias {
      throw MotionError.turnedDuringCalibration(
        path: devicePath, rateDegreesPerSecond: mean * (180 / .pi))
    }
    guard let estimate = calibration.estimate else {
      throw MotionError.noGyroscopeSamples(path: devicePath, name: info.name, seconds: seconds)
    }
    return Result(
      devicePath: devicePath, device: info,
      bias: StoredGyroBias(estimate, samples: calibration.sampleCount, origin: .calibration),
      isLarge: calibration.isLarge)
  }
}
