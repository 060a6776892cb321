import Foundation

extension Quaternion {
  /// The shortest rotation that turns the unit vector `from` onto the unit
  /// vector `to`. Opposite vectors give a half turn about an axis
  /// perpendicular to `from`.
  @inlinable
  public init(rotating from: Vector3, onto to: Vector3) {
    let d = from.dot(to)
    if d < -1 + 1e-12 {
      // Any perpendicular axis will do; take the one farthest from `from`'s largest component.
      let helper = abs(from.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
      let axis = from.cross(helper).normalized ?? Vector3(0, 0, 1)
      self.init(w: 0, x: axis.x, y: axis.y, z: axis.z)
      return
    }
    let c = from.cross(to)
    self = Quaternion(w: 1 + d, x: c.x, y: c.y, z: c.z).normalized
  }

  /// The rotation by the rotation vector `(gx, gy, gz)·dt` (rad/s times s),
  /// as the gyroscope integrates it over one step.
  ///
  /// Exact for any angle; below 0.05 rad it uses a Taylor series that is
  /// accurate to double precision and avoids `sin`/`cos`.
  @inlinable @inline(__always)
  public init(rotationRate r: Vector3, interval dt: Double) {
    self.init(rotationRate: r, rateSquared: r.lengthSquared, interval: dt)
  }

  /// ``init(rotationRate:interval:)`` with `r.lengthSquared` already at
  /// hand (`rateSquared`, (rad/s)²): a caller that has it spares computing
  /// it again, which the compiler does not see it may skip.
  @inlinable @inline(__always)
  init(rotationRate r: Vector3, rateSquared: Double, interval dt: Double) {
    let angle2 = rateSquared * dt * dt
    let c: Double
    let s: Double  // sin(angle/2) / angle
    if angle2 < 0.0025 {
      // cos(a/2) and sin(a/2)/a to the a⁶ term: error below 1e-16 for a < 0.05.
      // Products with the reciprocals (folded at compile time), not divisions.
      let h2 = angle2 * 0.25
      c = 1 - h2 * (0.5 - h2 * (1.0 / 24 - h2 * (1.0 / 720)))
      s = 0.5 * (1 - h2 * (1.0 / 6 - h2 * (1.0 / 120 - h2 * (1.0 / 5040))))
    } else {
      let angle = angle2.squareRoot()
      c = cos(angle / 2)
      s = sin(angle / 2) / angle
    }
    let k = s * dt
    self.init(w: c, x: r.x * k, y: r.y * k, z: r.z * k)
  }

  /// The rotation vector (axis times angle, radians) of this unit
  /// quaternion, with the angle in 0…π.
  @inlinable
  public var rotationVector: Vector3 {
    let q = w < 0 ? Quaternion(w: -w, x: -x, y: -y, z: -z) : self
    let sinHalf = (q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
    guard sinHalf > 1e-300 else { return .zero }
    let angle = 2 * atan2(sinHalf, q.w)
    return Vector3(q.x, q.y, q.z) * (angle / sinHalf)
  }

  /// Spherical linear interpolation from `self` (t = 0) to `other` (t = 1)
  /// along the shorter arc. Both must be unit quaternions.
  @inlinable
  public func slerp(to other: Quaternion, t: Double) -> Quaternion {
    var b = other
    var d = w * b.w + x * b.x + y * b.y + z * b.z
    if d < 0 {
      b = Quaternion(w: -b.w, x: -b.x, y: -b.y, z: -b.z)
      d = -d
    }
    let k0: Double
    let k1: Double
    if d > 0.9995 {
      // Nearly the same rotation: linear interpolation, then normalisation, is exact enough.
      k0 = 1 - t
      k1 = t
    } else {
      let theta = acos(d)
      let s = sin(theta)
      k0 = sin((1 - t) * theta) / s
      k1 = sin(t * theta) / s
    }
    return Quaternion(
      w: k0 * w + k1 * b.w, x: k0 * x + k1 * b.x, y: k0 * y + k1 * b.y, z: k0 * z + k1 * b.z
    ).normalized
  }

  /// The up axis of the world (+z), in the coordinates that this rotation
  /// turns into world coordinates: the third row of the rotation matrix.
  @inlinable
  public var upVector: Vector3 {
    Vector3(2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z)
  }
}

extension Quaternion {
  /// This quaternion scaled back to unit length by one Newton step,
  /// `q·(3 − |q|²)/2`: no square root, no division. Exact enough for a
  /// quaternion whose norm is within 1e-3 of 1, such as the product of unit
  /// quaternions; use ``normalized`` for anything else.
  @inlinable @inline(__always)
  public var renormalized: Quaternion {
    let k = 1.5 - 0.5 * (w * w + x * x + y * y + z * z)
    return Quaternion(w: w * k, x: x * k, y: y * k, z: z * k)
  }
}

extension Quaternion {
  /// `rotate(Vector3(1, 0, 0))` bit for bit, without the products with the
  /// unit vector's zeros (which the compiler must keep: x·0 is −0 or NaN for
  /// some x). Each dropped term is a ±0 that leaves a nonzero sum as it
  /// is; where the sum is zero, `0 +` gives the +0 that `rotate` gives. The
  /// fusion's bias update takes the rows of its rotation every block.
  @inline(__always)
  func rotatedXAxis() -> Vector3 {
    // t = 2 u × (1, 0, 0) = (±0, 2z, −2y); the result is x̂ + w·t + u × t.
    let ty = 2 * z
    let tz = -2 * y
    return Vector3(1 + (y * tz - z * ty), (0 + w * ty) - x * tz, (0 + w * tz) + x * ty)
  }

  /// `rotate(Vector3(0, 1, 0))` bit for bit (see ``rotatedXAxis()``).
  @inline(__always)
  func rotatedYAxis() -> Vector3 {
    // t = 2 u × (0, 1, 0) = (−2z, ±0, 2x); the result is ŷ + w·t + u × t.
    let tx = -2 * z
    let tz = 2 * x
    return Vector3((0 + w * tx) + y * tz, 1 + (z * tx - x * tz), (0 + w * tz) - y * tx)
  }
}
