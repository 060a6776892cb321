import Attitude
import Evdev
import EvdevCore
import SystemCalls

/// Measures a live device's gyroscope bias while it is held still, as
/// `tilt-cli calibrate` does: the device is read for a while, every sample
/// goes into Attitude's ``GyroBiasCalibration``, and the result is what the
/// fusion starts from next time (``GyroBiasStore``).
public final class GyroCalibrator {
  /// A finished measurement.
  public struct Result: Sendable {
    public var devicePath: String
    public var device: DeviceInfo
    /// As stored: deg/s, card frame.
    public var bias: StoredGyroBias
  }

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
      throw TiltError(
        "\(devicePath): \"\(info.name)\" has no gyroscope, so there is no bias to measure; "
          + "an accelerometer needs no calibration")
    }
    decoder = SampleDecoder(profile: profile, stickRange: configuration.stickRangeDegrees)
  }

  deinit { device.close() }

  /// Reads the device for `seconds` of wall time, calling `progress` with
  /// the fraction done (0…1) as samples arrive. Fails when the device moved,
  /// went away or sent nothing.
  public func measure(seconds: Double, progress: (Double) -> Void = { _ in }) throws -> Result {
    var calibration = GyroBiasCalibration()
    let start = monotonicSeconds()
    var left = seconds
    progress(0)
    while left > 0 {
      let ready = try Poller.wait(for: [device.fileDescriptor], timeout: left)
      if !ready.isEmpty {
        for frame in try device.readFrames() {
          guard let sample = decoder.decode(frame), let motion = sample.item.motion else {
            continue
          }
          calibration.add(motion)
          if calibration.hasMoved {
            throw TiltError(
              "\(devicePath): the device moved during the measurement; "
                + "lay it on a table (or hold it still) and run 'tilt-cli calibrate' again. "
                + "Nothing was stored.")
          }
        }
      }
      left = seconds - (monotonicSeconds() - start)
      progress(min(1, max(0, 1 - left / seconds)))
    }
    guard let estimate = calibration.estimate else {
      throw TiltError(
        "\(devicePath): \"\(info.name)\" sent no gyroscope samples in \(seconds) s; "
          + "check that it is switched on and reporting motion. Nothing was stored.")
    }
    return Result(
      devicePath: devicePath, device: info,
      bias: StoredGyroBias(estimate, samples: calibration.sampleCount, origin: .calibration))
  }
}
