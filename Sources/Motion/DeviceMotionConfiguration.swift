import Attitude
import SensorData

/// Everything device motion needs beyond its source: how attitude is
/// estimated and smoothed, how a device's axes map to the card frame, how far
/// a joystick tilts, and where a gyroscope's bias is kept. No card.
public struct DeviceMotionConfiguration: Sendable {
  /// The estimator, filter and reference (Attitude).
  public var motion = MotionConfiguration()
  /// Device-to-card axes; `nil`: udev's `ACCEL_MOUNT_MATRIX` for a live
  /// device, else the device's own axes.
  public var mountMatrix: MountMatrix?
  /// Tilt of a joystick at full deflection, degrees, in
  /// ``SampleDecoder/stickRangeDegreesRange``.
  public var stickRangeDegrees = SampleDecoder.defaultStickRangeDegrees
  /// Where a live device's gyroscope bias is kept between runs (what a
  /// calibration measured, or what the fusion learned at a rest): read at
  /// the start, written at the end when a rest confirmed it. `nil` keeps
  /// nothing; `GyroBiasStore()` is the user's state directory.
  public var gyroBiasStore: GyroBiasStore?

  public init() {}
}

extension DeviceMotionConfiguration {
  /// The same, with the attitude not smoothed: what a hub's devices are
  /// served with (DSU, the D-Bus service), so that the accelerometer reading
  /// comes back exactly as user acceleration minus gravity.
  public var unsmoothed: DeviceMotionConfiguration {
    var configuration = self
    configuration.motion.filter = .none
    return configuration
  }
}
