/// The covariance of the gyroscope bias estimate, a symmetric 3 × 3 matrix
/// in (rad/s)², card frame.
///
/// It grows while the bias is not observed (``grow(by:limit:)``), shrinks
/// with each observation, and each diagonal element is kept at or below a
/// bound, so an estimate that nothing has confirmed for a long time is never
/// believed less than a bias the sensor could have, and never more than the
/// observations justify.
struct BiasCovariance: Hashable, Sendable {
  var xx: Double
  var yy: Double
  var zz: Double
  var xy = 0.0
  var xz = 0.0
  var yz = 0.0

  /// A covariance with `variance` on the diagonal and no correlation.
  init(variance: Double) {
    xx = variance
    yy = variance
    zz = variance
  }

  init(variances v: Vector3) {
    xx = v.x
    yy = v.y
    zz = v.z
  }

  var diagonal: Vector3 { Vector3(xx, yy, zz) }
  /// The largest diagonal element: the variance of the least known axis.
  var largestVariance: Double { max(xx, max(yy, zz)) }

  @inline(__always)
  func multiply(_ v: Vector3) -> Vector3 {
    Vector3(
      xx * v.x + xy * v.y + xz * v.z,
      xy * v.x + yy * v.y + yz * v.z,
      xz * v.x + yz * v.y + zz * v.z)
  }

  /// Random-walk growth: adds `amount` to each variance, then scales any
  /// axis whose variance exceeds `limit` (its row and column, which keeps
  /// the matrix positive semi-definite) back to it.
  mutating func grow(by amount: Double, limit: Double) {
    xx += amount
    yy += amount
    zz += amount
    if xx > limit || yy > limit || zz > limit { bound(limit) }
  }

  mutating func bound(_ limit: Double) {
    let sx = xx > limit ? (limit / xx).squareRoot() : 1
    let sy = yy > limit ? (limit / yy).squareRoot() : 1
    let sz = zz > limit ? (limit / zz).squareRoot() : 1
    xx *= sx * sx
    yy *= sy * sy
    zz *= sz * sz
    xy *= sx * sy
    xz *= sx * sz
    yz *= sy * sz
  }

  /// Subtracts `k·(a·bᵀ + b·aᵀ)/2`: with `a` = `b` the rank-one downdate of
  /// a Kalman measurement, with `a` ≠ `b` its cross term.
  mutating func subtract(_ a: Vector3, _ b: Vector3, scale k: Double) {
    xx -= k * a.x * b.x
    yy -= k * a.y * b.y
    zz -= k * a.z * b.z
    xy -= k * 0.5 * (a.x * b.y + a.y * b.x)
    xz -= k * 0.5 * (a.x * b.z + a.z * b.x)
    yz -= k * 0.5 * (a.y * b.z + a.z * b.y)
  }

  /// Keeps the diagonal from going below `floor` (rounding in the updates).
  mutating func keepPositive(_ floor: Double) {
    xx = max(xx, floor)
    yy = max(yy, floor)
    zz = max(zz, floor)
  }

  /// The Kalman update for a measurement of the bias's component along the
  /// unit vector `h` with variance `r`: returns the change of the estimate,
  /// and downdates the covariance.
  mutating func observe(direction h: Vector3, innovation: Double, variance r: Double) -> Vector3 {
    let u = multiply(h)
    let s = h.dot(u) + r
    subtract(u, u, scale: 1 / s)
    return u * (innovation / s)
  }

  /// The Kalman update for a measurement `z` of one axis (`axis` 0, 1, 2)
  /// of the bias with variance `r`: returns the change of the estimate, and
  /// downdates the covariance.
  mutating func observe(axis: Int, innovation: Double, variance r: Double) -> Vector3 {
    let column: Vector3
    switch axis {
    case 0: column = Vector3(xx, xy, xz)
    case 1: column = Vector3(xy, yy, yz)
    default: column = Vector3(xz, yz, zz)
    }
    let s = (axis == 0 ? xx : axis == 1 ? yy : zz) + r
    subtract(column, column, scale: 1 / s)
    return column * (innovation / s)
  }
}

/// The state of a second-order Butterworth low-pass (damping 1/√2) of a
/// vector: the output and its rate of change.
struct ButterworthState: Hashable, Sendable {
  var value: Vector3
  var rate: Vector3

  init(_ value: Vector3, rate: Vector3 = .zero) {
    self.value = value
    self.rate = rate
  }

  /// One semi-implicit Euler step of `dt` seconds toward `input`, natural
  /// frequency `omega` (rad/s). With the defaults ω·dt is a few hundredths,
  /// so the response is the continuous filter's. A time constant as short as
  /// the step (ω·dt ≥ 0.5, where the step would no longer be stable) filters
  /// nothing: the output is the input.
  @inline(__always)
  mutating func step(_ input: Vector3, frequency omega: Double, interval dt: Double) {
    let k = omega * dt
    guard k < 0.5 else {
      value = input
      rate = .zero
      return
    }
    rate += (input - value) * (k * omega) - rate * (2.0.squareRoot() * k)
    value += rate * dt
  }
}
