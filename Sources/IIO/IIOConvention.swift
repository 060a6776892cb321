import SensorData

/// How an IIO reading becomes a card-frame sample (contract §1.4, §2.4).
///
/// HID sensor hubs follow Windows' convention, and iio-sensor-proxy and the
/// hwdb's `ACCEL_MOUNT_MATRIX` entries assume it for every IIO accelerometer:
/// with its mount matrix applied, the accelerometer reads the direction of
/// gravity (a device lying face up reads z ≈ −1 g, standing upright
/// y ≈ −1 g). iio-sensor-proxy negates x and y before judging the screen's
/// orientation for that reason (it never looks at z's sign). Contract §1.4's
/// accelerometer reads the up-vector (specific force: face up z = +1 g), so
/// the rule is: card acceleration = −(M · a) / g₀ on all three axes. That is
/// a change of sign of the reading, not of the frame: the axes stay
/// right-handed, and the gyroscope (rad/s, right-hand rule about the same
/// axes) is M · ω unchanged.
public enum IIOConvention {
  /// Standard gravity, m/s²: SensorData's `standardGravity`, under the name
  /// that code written against 0.2.0 uses.
  public static var standardGravity: Double { SensorData.standardGravity }

  /// The card-frame acceleration in g of an accelerometer reading in m/s².
  public static func cardAcceleration(_ reading: SIMD3<Double>, mount: MountMatrix)
    -> SIMD3<Double>
  {
    -mount.apply(reading) / SensorData.standardGravity
  }

  /// The card-frame rotation rate in rad/s of a gyroscope reading in rad/s.
  public static func cardRotationRate(_ reading: SIMD3<Double>, mount: MountMatrix)
    -> SIMD3<Double>
  {
    mount.apply(reading)
  }
}
