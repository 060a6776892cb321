import Foundation

/// An orientation, shaped like `CMAttitude`: the rotation that turns card
/// coordinates into reference (or world) coordinates.
///
/// Angles are Tait–Bryan angles in Core Motion's order,
/// `R = Rz(yaw)·Rx(pitch)·Ry(roll)`, in radians (contract §1.5).
public struct Attitude: Hashable, Sendable {
  public var quaternion: Quaternion

  @inlinable
  public init(quaternion: Quaternion) {
    self.quaternion = quaternion
  }

  public static let identity = Attitude(quaternion: .identity)

  /// The attitude with these angles, in radians.
  public init(pitch: Double, roll: Double, yaw: Double) {
    let q =
      Quaternion(axis: Vector3(0, 0, 1), angle: yaw)
      * Quaternion(axis: Vector3(1, 0, 0), angle: pitch)
      * Quaternion(axis: Vector3(0, 1, 0), angle: roll)
    self.init(quaternion: q)
  }

  public var rotationMatrix: RotationMatrix { quaternion.rotationMatrix }

  /// Rotation about the card's +x axis, radians, in −π/2…π/2.
  public var pitch: Double {
    let m = rotationMatrix
    return atan2(m.m32, (m.m31 * m.m31 + m.m33 * m.m33).squareRoot())
  }

  /// Rotation about the card's +y axis, radians, in −π…π; 0 at ±90° pitch.
  public var roll: Double {
    let m = rotationMatrix
    guard !Attitude.isGimbalLocked(m) else { return 0 }
    return atan2(-m.m31, m.m33)
  }

  /// Rotation about the card's +z axis, radians, in −π…π. At ±90° pitch,
  /// where roll and yaw turn about the same axis, all of it is yaw.
  public var yaw: Double {
    let m = rotationMatrix
    guard !Attitude.isGimbalLocked(m) else { return atan2(m.m21, m.m11) }
    return atan2(-m.m12, m.m22)
  }

  /// This attitude relative to `reference`, like `CMAttitude.multiply(byInverseOf:)`.
  public mutating func multiply(byInverseOf reference: Attitude) {
    quaternion = (reference.quaternion.conjugate * quaternion).normalized
  }

  /// This attitude relative to `reference`.
  public func relative(to reference: Attitude) -> Attitude {
    var a = self
    a.multiply(byInverseOf: reference)
    return a
  }

  @usableFromInline
  static func isGimbalLocked(_ m: RotationMatrix) -> Bool {
    m.m31 * m.m31 + m.m33 * m.m33 < 1e-18
  }
}
