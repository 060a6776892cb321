import Attitude

/// One motion sample in the DSU's axes and units, as a pad-data answer
/// carries it (SPEC §7).
public struct DSUMotion: Hashable, Sendable {
  /// The motion timestamp, µs.
  public var timestampMicroseconds: UInt64
  /// Accelerometer X, Y, Z in g.
  public var acceleration: (x: Float, y: Float, z: Float)
  /// Gyroscope pitch, yaw, roll in deg/s.
  public var gyroscope: (pitch: Float, yaw: Float, roll: Float)

  public init(
    timestampMicroseconds: UInt64, acceleration: (x: Float, y: Float, z: Float),
    gyroscope: (pitch: Float, yaw: Float, roll: Float)
  ) {
    self.timestampMicroseconds = timestampMicroseconds
    self.acceleration = acceleration
    self.gyroscope = gyroscope
  }

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

  public static func == (lhs: DSUMotion, rhs: DSUMotion) -> Bool {
    lhs.timestampMicroseconds == rhs.timestampMicroseconds
      && lhs.acceleration == rhs.acceleration && lhs.gyroscope == rhs.gyroscope
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(timestampMicroseconds)
    for value in [acceleration.x, acceleration.y, acceleration.z] { hasher.combine(value) }
    for value in [gyroscope.pitch, gyroscope.yaw, gyroscope.roll] { hasher.combine(value) }
  }
}
