import Attitude

/// Whether motion updates run, as with `CMMotionManager`.
public enum UpdateState: String, Hashable, Sendable {
  case active
  case stopped
}

/// One display frame: everything a renderer draws and the jsonl line says (contract §4.1).
public struct CardFrame: Hashable, Sendable {
  /// Seconds on the sample clock (since the source's first sample).
  public var t: Double
  /// The latest motion at `t`.
  public var motion: DeviceMotion
  public var pose: CardPose
  /// Degrees, 0 (front) … 180 (turned over).
  public var flipAngle: Double
  /// Whether the card is flipped (or turning toward flipped).
  public var flipped: Bool
  public var face: CardFace
  /// The visible face's transform (see ``CardGeometry``).
  public var transform: Matrix4
  public var extras: CardExtras
  public var state: UpdateState

  /// The frame at `t`, its view and cues computed from the pose and flip angle.
  public init(
    t: Double, motion: DeviceMotion, pose: CardPose, flipAngle: Double, flipped: Bool,
    state: UpdateState, configuration: CardConfiguration
  ) {
    let view = CardGeometry.view(pose: pose, flipAngle: flipAngle, configuration: configuration)
    self.t = t
    self.motion = motion
    self.pose = pose
    self.flipAngle = flipAngle
    self.flipped = flipped
    self.face = view.face
    self.transform = view.transform
    self.extras = CardExtras(
      normal: view.normal, flipAngle: flipAngle,
      width: configuration.width, height: configuration.height)
    self.state = state
  }
}

extension DeviceMotion {
  /// Motion at rest in the reference attitude: what a frame shows before any
  /// sample (or when motion is never read, as with reduce motion).
  public static func resting(at time: Double) -> DeviceMotion {
    DeviceMotion(
      timestamp: time, attitude: .identity, gravity: Vector3(0, 0, -1),
      userAcceleration: .zero, rotationRate: nil)
  }
}
