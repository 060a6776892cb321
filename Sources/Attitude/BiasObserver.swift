/// The gyroscope bias as the fusion knows it: a Kalman estimate with its own
/// covariance, observed in motion through the inclination corrections and at
/// rest through a rest window's mean rate.
///
/// The covariance grows slowly while the bias is unobservable
/// (``FusionParameters/biasRandomWalk``), is bounded by
/// ``FusionParameters/maximumBias``², and shrinks with each observation, so
/// a bias known from a rest moves only slowly in motion
/// (``FusionParameters/motionBiasNoise``) and cannot run away. Unless the
/// corrections keep disagreeing with it: see
/// ``matchSustainedInnovation(_:rows:_:recentRotation:interval:)``. How a
/// rest window is judged: ``acceptsRest(_:)``.
struct BiasObserver: Sendable {
  /// The estimated gyroscope bias, rad/s, card frame.
  var bias: Vector3 = .zero
  /// What ``bias`` is learned about (±``FusionParameters/maximumBias``) and
  /// what the rest test measures the steady rate from: zero, or a seeded
  /// calibration beyond ``FusionParameters/maximumBias`` (``seed(_:)``).
  var centre: Vector3 = .zero
  /// Covariance of ``bias``, (rad/s)².
  var covariance: BiasCovariance
  /// True once a rest has measured the bias since the start or the last
  /// ``seed(_:)``.
  var isConfirmed = false
  /// True once ``seed(_:)`` has given a stored bias: until a rest
  /// confirms it, the first rest replaces it however far it is.
  var isSeeded = false
  /// The bias the last accepted rest left, and the variance of the least
  /// known axis, grown by the random walk since then: a rest that agrees
  /// with it is accepted however far motion has moved ``bias`` since.
  var confirmedBias = Vector3.zero
  var confirmedVariance: Double
  /// The expected square of the drift rate that the bias error leaves in
  /// the low-pass, hᵀPh over its two rows (the last
  /// ``observeInMotion(correction:trust:recentRotation:interval:)``), (rad/s)².
  var drift2: Double
  /// The mean over ``FusionParameters/usageTimeConstant`` of motion of the
  /// bias error that each block's innovation (the two observed rows)
  /// points to, rad/s, card frame; zero at rest.
  var sustainedError = Vector3.zero
  /// The same low-pass as the accelerometer's of the two horizontal rows of
  /// R (card → world), and of R·bias's horizontal part: what the low-passed
  /// corrections observe of the bias.
  var filteredRow1 = ButterworthState(Vector3(1, 0, 0))
  var filteredRow2 = ButterworthState(Vector3(0, 1, 0))
  var filteredRotatedBias = ButterworthState(.zero)
  var rowFiltersNeedStart = true

  let maximumBias: Double
  let maximumBias2: Double
  let biasRandomWalk2: Double
  let restGyroscopeNoise2: Double
  let restBiasGate2: Double
  /// Variance of the bias error that one accelerometer time constant of
  /// motion reveals, times that time constant, (rad/s)²·s.
  let motionBiasNoise2Time: Double
  let motionBiasTimeConstant: Double
  /// What noise alone leaves in the square of ``sustainedError``,
  /// (rad/s)²: ``FusionParameters/motionBiasNoise``² on each of the two
  /// observed rows. Once, not divided by the τ₀s in the mean: what misleads
  /// the corrections in motion (a lean, a push that persists, a
  /// merry-go-round) is not new from one τ₀ to the next. And s², which
  /// times the square rotation rate is what the scale error's drift adds.
  let sustainedNoise2: Double
  let scaleError2: Double
  /// 1 / ``FusionParameters/usageTimeConstant``, 1/s.
  let usageRate: Double

  init(_ parameters: FusionParameters) {
    maximumBias = parameters.maximumBias
    maximumBias2 = parameters.maximumBias * parameters.maximumBias
    covariance = BiasCovariance(variance: maximumBias2)
    drift2 = 2 * maximumBias2
    confirmedVariance = maximumBias2
    biasRandomWalk2 = parameters.biasRandomWalk * parameters.biasRandomWalk
    restGyroscopeNoise2 = parameters.restGyroscopeNoise * parameters.restGyroscopeNoise
    restBiasGate2 = parameters.restBiasGate * parameters.restBiasGate
    motionBiasNoise2Time =
      parameters.motionBiasNoise * parameters.motionBiasNoise
      * parameters.accelerometerTimeConstant
    motionBiasTimeConstant = parameters.motionBiasTimeConstant
    sustainedNoise2 = 2 * parameters.motionBiasNoise * parameters.motionBiasNoise
    scaleError2 = parameters.gyroscopeScaleError * parameters.gyroscopeScaleError
    usageRate = 1 / max(parameters.usageTimeConstant, 1e-9)
  }

  /// Starts from a stored estimate (``GyroAccelFusion/seedBias(_:)``).
  mutating func seed(_ estimate: GyroBiasEstimate) {
    let floor = restGyroscopeNoise2
    func variance(_ s: Double) -> Double {
      s.isFinite ? min(max(s * s, floor), maximumBias2) : maximumBias2
    }
    let limit = GyroBiasCalibration.maximumBias
    func limited(_ b: Double) -> Double { min(max(b, -limit), limit) }
    let seeded = estimate.bias.isFinite ? estimate.bias : .zero
    bias = Vector3(limited(seeded.x), limited(seeded.y), limited(seeded.z))
    func centred(_ b: Double) -> Double { abs(b) > maximumBias ? b : 0 }
    centre = Vector3(centred(bias.x), centred(bias.y), centred(bias.z))
    let u = estimate.uncertainty
    covariance = BiasCovariance(variances: Vector3(variance(u.x), variance(u.y), variance(u.z)))
    drift2 = 2 * covariance.largestVariance
    sustainedError = .zero
    confirmedBias = bias
    confirmedVariance = covariance.largestVariance
    isConfirmed = false
    isSeeded = true
  }

  /// The bias may have wandered over `dt` seconds since it was last observed.
  @inline(__always)
  mutating func wander(interval dt: Double) {
    let growth = biasRandomWalk2 * dt
    covariance.grow(by: growth, limit: maximumBias2)
    confirmedVariance = min(confirmedVariance + growth, maximumBias2)
  }

  /// Whether every axis of `offset` is within ``FusionParameters/maximumBias``:
  /// a mean rate the fusion can hold as its bias.
  @inline(__always)
  func isWithinLimit(_ offset: Vector3) -> Bool {
    let m = maximumBias
    return abs(offset.x) < m && abs(offset.y) < m && abs(offset.z) < m
  }

  /// Keeps ``bias`` within ``FusionParameters/maximumBias`` of ``centre``.
  /// Inlined: it runs once a block, and the call cost about as much as the
  /// clamp.
  @inline(__always)
  mutating func clamp() {
    let m = maximumBias
    let c = centre
    bias = Vector3(
      min(max(bias.x, c.x - m), c.x + m), min(max(bias.y, c.y - m), c.y + m),
      min(max(bias.z, c.z - m), c.z + m))
  }

  // MARK: In motion

  /// Low-passes the horizontal rows of `toCard` (world → card) and of
  /// R·bias as the accelerometer is (natural frequency `omega`), after a
  /// correction.
  @inline(__always)
  mutating func followRows(_ toCard: Quaternion, frequency omega: Double, interval dt: Double) {
    let row1 = toCard.rotatedXAxis()
    let row2 = toCard.rotatedYAxis()
    let rotatedBias = Vector3(row1.dot(bias), row2.dot(bias), 0)
    if rowFiltersNeedStart {
      filteredRow1 = ButterworthState(row1)
      filteredRow2 = ButterworthState(row2)
      filteredRotatedBias = ButterworthState(rotatedBias)
      rowFiltersNeedStart = false
    } else {
      filteredRow1.step(row1, frequency: omega, interval: dt)
      filteredRow2.step(row2, frequency: omega, interval: dt)
      filteredRotatedBias.step(rotatedBias, frequency: omega, interval: dt)
    }
  }

  /// A Kalman update of the bias from one inclination correction.
  ///
  /// A bias error turns the almost-inertial frame by R·(b − b̂)·dt (R: card →
  /// world); the low-passed accelerometer undoes the horizontal part of that
  /// drift, low-passed too, so the correction rate −c/dt is about
  /// LP(R·b) − LP(R·b̂) = LP(R)·b − LP(R·b̂) for a steady bias b. Hence the
  /// measurement −c/dt + LP(R·b̂) of LP(R)·b, consistent however fast R turns
  /// (VQF's observation, Laidig & Seel 2023). Its vertical row is not
  /// observed: that variance grows. The corrections of one accelerometer
  /// time constant are one measurement, not many (the low-pass makes them
  /// alike), so each block's is worth `dt/τ` of one with variance
  /// ``FusionParameters/motionBiasNoise``², less when the accelerometer is
  /// trusted less (`trust`). The gain never exceeds `dt/`
  /// ``FusionParameters/motionBiasTimeConstant``: a faster feedback would
  /// outrun the low-pass it learns from and ring.
  mutating func observeInMotion(
    correction: Vector3, trust: Double, recentRotation: Double, interval dt: Double
  ) {
    let h1 = filteredRow1.value
    let h2 = filteredRow2.value
    let u1 = covariance.multiply(h1)
    let u2 = covariance.multiply(h2)
    let inverseDt = 1 / dt
    let r = max(
      motionBiasNoise2Time * inverseDt / trust,
      covariance.largestVariance * motionBiasTimeConstant * inverseDt)
    let d11 = h1.dot(u1)
    let d22 = h2.dot(u2)
    drift2 = d11 + d22
    let s11 = d11 + r
    let s12 = h1.dot(u2)
    let s22 = d22 + r
    let inverseDeterminant = 1 / (s11 * s22 - s12 * s12)
    let lagged = filteredRotatedBias.value
    let z1 = -correction.x * inverseDt + lagged.x - h1.dot(bias)
    let z2 = -correction.y * inverseDt + lagged.y - h2.dot(bias)
    // K = [u1 u2]·S⁻¹; bias += K·z; P −= K·[u1 u2]ᵀ.
    let k1 = (u1 * s22 - u2 * s12) * inverseDeterminant
    let k2 = (u2 * s11 - u1 * s12) * inverseDeterminant
    bias += k1 * z1 + k2 * z2
    covariance.subtract(u1, u1, scale: s22 * inverseDeterminant)
    covariance.subtract(u1, u2, scale: -2 * s12 * inverseDeterminant)
    covariance.subtract(u2, u2, scale: s11 * inverseDeterminant)
    covariance.keepPositive(1e-3 * restGyroscopeNoise2)
    matchSustainedInnovation(
      Vector3(z1, z2, 0), rows: h1, h2, recentRotation: recentRotation, interval: dt)
    clamp()
  }

  /// Covariance matching (Mehra 1972) for a bias that moves faster than its
  /// random walk (``FusionParameters/biasRandomWalk``, a steady sensor's):
  /// a gyroscope warming up ramps by degrees per second in minutes, and the
  /// estimate, sure of a bias a rest measured, lags further and further
  /// while τ lengthens (``TimeConstantLaw``'s `d²` is what the covariance
  /// allows). Its innovations then no longer average out: the mean over
  /// ``FusionParameters/usageTimeConstant`` of motion of the bias errors
  /// they point to (card frame) is the bias error, plus noise whose
  /// expected square is known (``sustainedNoise2``, and the scale error's
  /// drift s²ω², `recentRotation` being ω², that the law counts as the
  /// turn's). Where the mean's square exceeds that noise and what the
  /// covariance allows along its direction, the covariance is raised to it
  /// there: the bias follows, and τ shortens with the drift (the figures:
  /// docs/bench-attitude.md, `matchSustainedInnovation`).
  @inline(__always)
  mutating func matchSustainedInnovation(
    _ innovation: Vector3, rows h1: Vector3, _ h2: Vector3, recentRotation: Double,
    interval dt: Double
  ) {
    let x = dt * usageRate
    // The bias error, card frame, that this block's innovation points to:
    // a bias error stays put in the card frame however the card turns,
    // while a push that misleads the accelerometer (a car's corner, a
    // merry-go-round) stays put in the world and averages out here.
    let blockError =
      h1 * (innovation.x / max(h1.lengthSquared, 1e-6)) + h2
      * (innovation.y / max(h2.lengthSquared, 1e-6))
    sustainedError += (blockError - sustainedError) * (x / (1 + x))
    let error = sustainedError
    let e2 = error.lengthSquared
    // Within the noise (the common case): nothing to match.
    let noise = sustainedNoise2 + scaleError2 * recentRotation
    guard e2 > noise else { return }
    let allowed = error.dot(covariance.multiply(error)) / e2
    let excess = e2 - noise - allowed
    if excess > 0 { covariance.subtract(error, error, scale: -excess / e2) }
  }
}
