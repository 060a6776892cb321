/// A stretch of steady gyroscope and accelerometer readings that may be
/// rest.
///
/// While the card rests, the gyroscope's mean over the window measures its
/// bias. The window keeps the orientation at its start and the integral of
/// the raw gyroscope since then, so that once the window is accepted as rest
/// the orientation can be integrated afresh over it with the bias it
/// revealed. It also fits a straight line to the raw accelerometer over the
/// window, to tell whether the card turned about a horizontal axis.
struct RestWindow: Sendable {
  /// The almost-inertial orientation (card → inertial) when the window began.
  var startOrientation: Quaternion
  /// Integral of the raw gyroscope since the start, rad, card frame.
  var gyroscopeIntegral = Vector3.zero
  /// Seconds since the start.
  var duration = 0.0
  /// The window's first accelerometer reading: the sums below are of the
  /// readings less it, d = a − a₀, so that readings that do not change (a
  /// still sensor whose noise is below its resolution or the kernel's fuzz
  /// filter) fit a slope and residuals of exactly zero. Summed as they
  /// are, their rounding was a slope of 1e-15 against residuals that
  /// cancelled to zero: a turn beyond the noise, and a rest's vertical
  /// mean was never taken.
  var accelerationOrigin = Vector3.zero
  /// Sums for the least-squares slope of the accelerometer over time:
  /// Σd, Σt·d, Σt, Σt², n (t from the start of the window).
  var accelerationSum = Vector3.zero
  var accelerationTimeSum = Vector3.zero
  /// Σ|d|²: with the others, the fit's residuals, hence the slope's noise.
  var accelerationSquareSum = 0.0
  var timeSum = 0.0
  var time2Sum = 0.0
  var count = 0.0

  /// False once the readings stopped being steady: the window is void
  /// (a flag, not an optional, so that the test at every sample is a load).
  var isOpen = true

  init(start: Quaternion) {
    startOrientation = start
  }

  /// No window: the readings are not steady.
  static var closed: RestWindow {
    var window = RestWindow(start: .identity)
    window.isOpen = false
    return window
  }

  @inline(__always)
  mutating func add(_ gyroscope: Vector3, acceleration: Vector3, interval dt: Double) {
    gyroscopeIntegral += gyroscope * dt
    duration += dt
    let t = duration
    if count == 0 { accelerationOrigin = acceleration }
    let d = acceleration - accelerationOrigin
    accelerationSum += d
    accelerationTimeSum += d * t
    accelerationSquareSum += d.lengthSquared
    timeSum += t
    time2Sum += t * t
    count += 1
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

  /// Whether the accelerometer shows the card turning about a horizontal
  /// axis at `rate` (rad/s, card frame) as the gyroscope says, rather than
  /// still: the window is then a slow turn, not a rest, whatever the bias.
  func accelerometerConfirmsTurn(by rate: Vector3, gyroscopeNoise2: Double) -> Bool {
    guard let s = slopes(turningAt: rate, gyroscopeNoise2: gyroscopeNoise2) else { return false }
    return (s.fitted - s.predicted).lengthSquared < s.fitted.lengthSquared
  }

  /// True when the accelerometer shows that the card did not turn at `rate`
  /// (rad/s, card frame) during the window: the fitted slope of the
  /// readings is closer to no motion at all than to the turn's.
  func accelerometerDisprovesTurn(by rate: Vector3, gyroscopeNoise2: Double) -> Bool {
    guard let s = slopes(turningAt: rate, gyroscopeNoise2: gyroscopeNoise2) else { return false }
    return s.fitted.lengthSquared < (s.fitted - s.predicted).lengthSquared
  }

  /// The readings' fitted slope over the window, g/s, beside the slope a turn
  /// at `rate` would give: a turn about a horizontal axis moves gravity g in
  /// the card frame at `−rate × g`. Nil for a window too short to fit, and
  /// for a turn that shows nothing: about the vertical (it moves nothing),
  /// or too slow to move gravity beyond the gyroscope's noise (3σ of a mean
  /// with variance `gyroscopeNoise2`) and 1 mrad over the window.
  private func slopes(turningAt rate: Vector3, gyroscopeNoise2: Double)
    -> (fitted: Vector3, predicted: Vector3)?
  {
    guard count > 2, let g = meanAcceleration.normalized else { return nil }
    let predicted = -rate.cross(g)
    let turn2 = predicted.lengthSquared * duration * duration
    guard turn2 > 9 * gyroscopeNoise2 * duration * duration + 1e-6 else { return nil }
    let n = count
    let spread = time2Sum - timeSum * timeSum / n
    guard spread > 0 else { return nil }
    let slope = (accelerationTimeSum - accelerationSum * (timeSum / n)) / spread
    return (slope, predicted)
  }

  /// The mean accelerometer reading over the window; `count` > 0.
  var meanAcceleration: Vector3 { accelerationOrigin + accelerationSum / count }

  /// The turn across gravity that the accelerometer shows over the window,
  /// rad/s (card frame): a turn at ω moves gravity g at −ω × g, so the
  /// fitted slope ġ gives ω⊥ = −(g × ġ)/|g|². Also the variance of each of
  /// its two components from the fit's residuals (the accelerometer's noise
  /// and a hand's tremor, as this device has them), (rad/s)², and the unit
  /// vector up. Nil for a window too short to fit.
  func turnAcrossGravity() -> GravityTurn? {
    let n = count
    guard n > 3 else { return nil }
    let spread = time2Sum - timeSum * timeSum / n
    let mean = meanAcceleration
    let g2 = mean.lengthSquared
    guard spread > 0, g2 > 0, let up = mean.normalized else { return nil }
    let slope = (accelerationTimeSum - accelerationSum * (timeSum / n)) / spread
    // Σ|a − ā − ġ(t − t̄)|² = Σ|d|² − n·|d̄|² − |ġ|²·spread.
    let meanDeviation = accelerationSum / n
    let residual =
      accelerationSquareSum - n * meanDeviation.lengthSquared - slope.lengthSquared * spread
    let slopeVariance = max(0, residual) / (3 * (n - 2) * spread)
    return GravityTurn(rate: -mean.cross(slope) / g2, variance: slopeVariance / g2, up: up)
  }
}

/// The turn across gravity that a window's readings show
/// (``RestWindow/turnAcrossGravity()``).
struct GravityTurn: Sendable {
  /// The turn, rad/s, card frame (across gravity).
  var rate: Vector3
  /// The variance of each of its two components, (rad/s)².
  var variance: Double
  /// The unit vector up, card frame.
  var up: Vector3

  /// The turn beyond the noise: the rate scaled by (|ω⊥|² − 2σ²)/|ω⊥|² when
  /// positive, else zero (a still card's noise is not taken for a turn).
  var beyondNoise: Vector3 {
    let measured2 = rate.lengthSquared
    let excess = measured2 - 2 * variance
    return excess > 0 ? rate * (excess / measured2) : .zero
  }
}
