import Attitude

extension DSUMotion {
  /// The DSU reading of a card-frame sample: with `acceleration` the
  /// accelerometer reading in g (still, face up: (0, 0, +1)) and
  /// `rotationRate` in rad/s with its bias removed (`nil`: zeros),
  /// accelerometer (X, Y, Z) = (−a_x, −a_z, +a_y) and gyroscope
  /// (pitch, yaw, roll) = (+ω_x, −ω_z, +ω_y) in deg/s.
  public init(timestampMicroseconds: UInt64, acceleration a: Vector3, rotationRate: Vector3?) {
    self.timestampMicroseconds = timestampMicroseconds
    acceleration = (Float(-a.x), Float(-a.z), Float(a.y))
    let w = (rotationRate ?? Vector3(0, 0, 0)) * (180 / Double.pi)
    gyroscope = (Float(w.x), Float(-w.z), Float(w.y))
  }
}
