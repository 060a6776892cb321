/// What an estimator knows after one sample.
public struct AttitudeEstimate: Hashable, Sendable {
  /// The rotation that turns card coordinates into world coordinates
  /// (world z up, yaw arbitrary).
  public var orientation: Quaternion
  /// Angular velocity in rad/s, card frame, with the estimated gyroscope
  /// bias removed; `nil` without a gyroscope.
  public var rotationRate: Vector3?

  public init(orientation: Quaternion, rotationRate: Vector3?) {
    self.orientation = orientation
    self.rotationRate = rotationRate
  }

  /// Unit vector toward the earth, card frame.
  @inlinable public var gravity: Vector3 { -orientation.upVector }
}

/// Turns timed motion samples into an absolute orientation.
///
/// Implementations take the time from the sample and never read a clock,
/// so the same samples always give the same estimates; `update` does not
/// allocate.
public protocol AttitudeEstimator {
  /// One step. Returns `nil`, and leaves the state untouched, when the
  /// sample cannot be used (a non-finite time or reading).
  mutating func update(_ sample: MotionSample) -> AttitudeEstimate?

  /// Forgets the orientation, as if no sample had been seen. What the
  /// estimator learned about the sensor (a gyroscope bias) is kept.
  mutating func reset()
}

extension MotionSample {
  /// True when time, acceleration and rotation rate (if any) are all finite.
  @inlinable @inline(__always)
  public var isFinite: Bool {
    // x·0 is ±0 for a finite x and NaN for an infinity or a NaN, and a sum
    // of zeros is zero: one comparison checks all seven numbers.
    let a = acceleration
    var zeros = time * 0 + a.x * 0 + a.y * 0 + a.z * 0
    if let r = rotationRate { zeros += r.x * 0 + r.y * 0 + r.z * 0 }
    return zeros == 0
  }
}
