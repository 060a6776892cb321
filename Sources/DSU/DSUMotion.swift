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
