import Attitude
import Evdev
import EvdevCore
import Foundation
import SystemCalls

/// Measures a live device's gyroscope bias while it is held still: the device is read for a while, every sample
/// goes into Attitude's ``GyroBiasCalibration``, and the result is what the
/// fusion starts from next time (``GyroBiasStore``).
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
  public let info: DeviceInfo
  private let device: LiveDevice
  private var decoder: SampleDecoder

  /// Opens `devicePath`; fails when it has no gyroscope.
  public init(devicePath: String, configuration: TiltConfiguration = TiltConfiguration()) throws {
    self.devicePath = devicePath
    device = try LiveDevice(path: devicePath)
    info = device.info
    let profile = try DeviceSetup.profile(
      for: info, configuration: configuration, device: devicePath)
    guard profile.gyroAxes != nil else {
      device.close()
      throw TiltError.noGyroscope(path: devicePath, name: info.name)
    }
    decoder = SampleDecoder(profile: profile, stickRange: configuration.stickRangeDegrees)
  }

  deinit { device.close() }

  /// Reads the device for `seconds` of wall time, calling `progress` with
  /// the fraction done (0…1) as samples arrive. Fails when the device moved
  /// (its readings varied: motion is variation, not size), read a steady
  /// rate beyond ``maximumBiasDegreesPerSecond`` (a turn), went away or sent
  /// nothing.
  public func measure(seconds: Double, progress: (Double) -> Void = { _ in }) throws -> Result {
    var calibration = GyroBiasCalibration()
    let loop = try EventLoop()
    let end = MonotonicInstant.now + .seconds(seconds)
    var left = seconds
    progress(0)
    while left > 0 {
      let ready = try loop.turn(until: end, watching: [device.fileDescriptor]).ready
      if !ready.isEmpty {
        for frame in try device.readFrames() {
          guard let sample = decoder.decode(frame), let motion = sample.item.motion else {
            continue
          }
          calibration.add(motion)
          if calibration.hasMoved {
            throw TiltError.movedDuringCalibration(path: devicePath)
          }
        }
      }
      left = MonotonicInstant.now.duration(to: end).seconds
      progress(min(1, max(0, 1 - left / seconds)))
    }
    if calibration.isBeyondMaximum, let mean = calibration.bias {
      throw TiltError.turnedDuringCalibration(
        path: devicePath, rateDegreesPerSecond: mean * (180 / .pi))
    }
    guard let estimate = calibration.estimate else {
      throw TiltError.noGyroscopeSamples(path: devicePath, name: info.name, seconds: seconds)
    }
    return Result(
      devicePath: devicePath, device: info,
      bias: StoredGyroBias(estimate, samples: calibration.sampleCount, origin: .calibration),
      isLarge: calibration.isLarge)
  }
}
