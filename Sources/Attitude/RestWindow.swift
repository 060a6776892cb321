/// A stretch of steady gyroscope and accelerometer readings that may be
/// rest.
///
/// While the card rests, the gyroscope's mean over the window measures its
/// bias. The window keeps the orientation at its start and the integral of
/// the raw gyroscope since then, so that once the window is accepted as rest
/// the orientation can be integrated afresh over it with the bias it
/// revealed.
struct RestWindow: Sendable {
  /// The almost-inertial orientation (card → inertial) when the window began.
  var startOrientation: Quaternion
  /// Integral of the raw gyroscope since the start, rad, card frame.
  var gyroscopeIntegral = Vector3.zero
  /// Seconds since the start.
  var duration = 0.0

  init(start: Quaternion) {
    startOrientation = start
  }

  mutating func add(_ gyroscope: Vector3, interval dt: Double) {
    gyroscopeIntegral += gyroscope * dt
    duration += dt
  }

  /// The mean raw gyroscope over the window, rad/s; `duration` > 0.
  var meanRate: Vector3 { gyroscopeIntegral / duration }

  /// The orientation the window ends in if the bias was `bias` throughout.
  /// The rotation over a window of steady readings is small and about a
  /// nearly fixed axis, so the integral is its rotation vector.
  func endOrientation(bias: Vector3) -> Quaternion {
    (startOrientation * Quaternion(rotationVector: gyroscopeIntegral - bias * duration))
      .renormalized
  }
}
