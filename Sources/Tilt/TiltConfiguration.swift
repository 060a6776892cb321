import Attitude
import EvdevCore
import TiltCard

/// Everything the pipeline needs to know beyond its source: how attitude is
/// estimated and smoothed, what the card does, and how a device's axes map to
/// the card's.
public struct TiltConfiguration {
  /// The estimator, filter and reference (Attitude).
  public var motion = MotionConfiguration()
  /// The card's pose, flip and lifecycle (TiltCard).
  public var card = CardConfiguration()
  /// Display frames per second of the card, in ``CardConfiguration/displayRateRangeHz``.
  public var displayRateHz = CardConfiguration.defaultDisplayRateHz
  /// One display frame per input sample instead of one per display frame.
  public var everySample = false
  /// Device-to-card axes; `nil`: udev's `ACCEL_MOUNT_MATRIX` for a live
  /// device, else the device's own axes.
  public var mountMatrix: MountMatrix?
  /// Tilt of a joystick at full deflection, degrees, in
  /// ``SampleDecoder/stickRangeDegreesRange``.
  public var stickRangeDegrees = SampleDecoder.defaultStickRangeDegrees
  /// Where a live device's gyroscope bias is kept between runs (what
  /// ``GyroCalibrator`` measured, or what the fusion learned at a rest):
  /// read at the start, written at the end when a rest confirmed it. `nil`
  /// keeps nothing; `GyroBiasStore()` is the user's state directory.
  public var gyroBiasStore: GyroBiasStore?

  public init() {}
}
