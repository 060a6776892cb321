import Foundation

/// A rotation quaternion, scalar first: `w + xi + yj + zk`.
///
/// Rotations compose like matrices: `(a * b).rotate(v) == a.rotate(b.rotate(v))`.
/// `==` is exact and distinguishes `q` from `-q`, which are the same rotation;
/// ``angle(to:)`` compares rotations.
public struct Quaternion: Hashable, Sendable {
  public var w: Double
  public var x: Double
  public var y: Double
  public var z: Double

  @inlinable
  public init(w: Double, x: Double, y: Double, z: Double) {
    self.w = w
    self.x = x
    self.y = y
    self.z = z
  }

  public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

  /// The rotation by `angle` radians about `axis` (right-hand rule); the axis
  /// need not be unit length. A zero axis gives the identity.
  @inlinable
  public init(axis: Vector3, angle: Double) {
    guard let a = axis.normalized else {
      self = .identity
      return
    }
    let s = sin(angle / 2)
    self.init(w: cos(angle / 2), x: a.x * s, y: a.y * s, z: a.z * s)
  }

  /// The rotation by the rotation vector `v` (axis times angle in radians).
  @inlinable
  public init(rotationVector v: Vector3) {
    self.init(axis: v, angle: v.length)
  }

  @inlinable @inline(__always) public var norm: Double {
    (w * w + x * x + y * y + z * z).squareRoot()
  }

  @inlinable
  public var normalized: Quaternion {
    let n = norm
    guard n > 0, n.isFinite else { return .identity }
    return Quaternion(w: w / n, x: x / n, y: y / n, z: z / n)
  }

  @inlinable @inline(__always) public var conjugate: Quaternion {
    Quaternion(w: w, x: -x, y: -y, z: -z)
  }

  @inlinable
  public var isFinite: Bool { w.isFinite && x.isFinite && y.isFinite && z.isFinite }

  @inlinable @inline(__always)
  public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
    Quaternion(
      w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
      x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
      y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
      z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
  }

  /// Turns `v` by this rotation (the quaternion must be unit length).
  @inlinable @inline(__always)
  public func rotate(_ v: Vector3) -> Vector3 {
    let u = Vector3(x, y, z)
    let t = 2 * u.cross(v)
    return v + w * t + u.cross(t)
  }

  /// The smallest angle, in radians, of the rotation that takes `self` to `other`.
  @inlinable
  public func angle(to other: Quaternion) -> Double {
    let d = abs(w * other.w + x * other.x + y * other.y + z * other.z)
    return 2 * acos(Swift.min(1, d))
  }

  /// The rotation as a 3×3 matrix, rows first: `m[r][c]`.
  @inlinable
  public var rotationMatrix: RotationMatrix {
    let ww = w * w
    let xx = x * x
    let yy = y * y
    let zz = z * z
    return RotationMatrix(
      m11: ww + xx - yy - zz, m12: 2 * (x * y - w * z), m13: 2 * (x * z + w * y),
      m21: 2 * (x * y + w * z), m22: ww - xx + yy - zz, m23: 2 * (y * z - w * x),
      m31: 2 * (x * z - w * y), m32: 2 * (y * z + w * x), m33: ww - xx - yy + zz)
  }
}

/// A 3×3 rotation matrix; `m12` is row 1, column 2, as in `CMRotationMatrix`.
public struct RotationMatrix: Hashable, Sendable {
  public var m11, m12, m13: Double
  public var m21, m22, m23: Double
  public var m31, m32, m33: Double

  @inlinable
  public init(
    m11: Double, m12: Double, m13: Double,
    m21: Double, m22: Double, m23: Double,
    m31: Double, m32: Double, m33: Double
  ) {
    (self.m11, self.m12, self.m13) = (m11, m12, m13)
    (self.m21, self.m22, self.m23) = (m21, m22, m23)
    (self.m31, self.m32, self.m33) = (m31, m32, m33)
  }
}
