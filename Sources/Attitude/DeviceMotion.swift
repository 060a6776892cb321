/// One timed reading of a motion sensor, in the card frame (contract §1.2).
///
/// The sample never names a device: evdev devices, recordings, CSV logs and
/// tests all reduce to this.
public struct MotionSample: Hashable, Sendable {
  /// Seconds since the first sample of the source.
  public var time: Double
  /// Specific force in g: a card lying still face up reads (0, 0, +1).
  public var acceleration: Vector3
  /// Angular velocity in rad/s, right-hand rule; `nil` without a gyroscope.
  public var rotationRate: Vector3?

  public init(time: Double, acceleration: Vector3, rotationRate: Vector3? = nil) {
    self.time = time
    self.acceleration = acceleration
    self.rotationRate = rotationRate
  }
}

/// The processed motion of the card, shaped like `CMDeviceMotion`.
public struct DeviceMotion: Hashable, Sendable {
  /// Seconds since the first sample of the source.
  public var timestamp: Double
  /// Reference-relative (or absolute) orientation.
  public var attitude: Attitude
  /// Unit vector toward the earth, in card coordinates.
  public var gravity: Vector3
  /// Acceleration beyond gravity, in g, card coordinates.
  public var userAcceleration: Vector3
  /// Angular velocity in rad/s, card coordinates, bias removed; `nil` without a gyroscope.
  public var rotationRate: Vector3?

  public init(
    timestamp: Double, attitude: Attitude, gravity: Vector3, userAcceleration: Vector3,
    rotationRate: Vector3?
  ) {
    self.timestamp = timestamp
    self.attitude = attitude
    self.gravity = gravity
    self.userAcceleration = userAcceleration
    self.rotationRate = rotationRate
  }
}
