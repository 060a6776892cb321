import Foundation

/// Gyroscope and accelerometer fusion in the spirit of VQF (Laidig & Seel,
/// Information Fusion 2023), written for this project.
///
/// - The bias-corrected gyroscope is integrated into `gyroOrientation`, the
///   rotation from the card into an *almost inertial* frame that only drifts
///   slowly with the remaining bias.
/// - The accelerometer, turned into that frame, goes through a
///   second-order Butterworth low-pass whose delay is
///   ``FusionParameters/accelerometerTimeConstant`` (VQF's filter). In that
///   frame gravity stands still while the card turns, so the low-pass
///   removes linear acceleration (shaking, taps) without lagging the
///   rotation.
/// - In motion the time constant follows how the card is used
///   (``FusionParameters/gyroscopeScaleError``): τ³ ∝ slow linear
///   acceleration / rotation rate², both averaged over half a minute of
///   motion, so a turning card is corrected sooner (its gyroscope's errors
///   grow with the turn) and a pushed one later (the push would leak
///   through), within 2.7–6 s; and sooner while the bias is not known (its
///   error drifts the frame as the turn's errors do).
/// - A reading that jumps from the readings' recent course (the last
///   block's mean) far beyond their recent jumps (a knock) weighs little in
///   the low-pass (``FusionParameters/shockScale``); a push that follows
///   its course keeps its weight, and a shake's readings weigh alike (the
///   jump is a vector, so its mean stays gravity).
/// - At rest the low-pass speeds up toward
///   ``FusionParameters/restAccelerometerTimeConstant`` as far as the
///   accelerometer disagrees with the estimate beyond its noise
///   (``FusionParameters/restDisagreementScale``): an inclination that a
///   disturbance left wrong converges within seconds, a right one is not
///   shaken by the accelerometer's noise.
/// - The accelerometer part runs once per
///   ``FusionParameters/correctionInterval`` on the mean of the readings
///   since the last run (the gyroscope is integrated at every sample): a
///   3 s low-pass loses nothing to a 20 ms block, and the update costs less.
/// - `inclinationCorrection` turns the almost-inertial frame so that the
///   low-passed acceleration points up; the corrections it takes while the
///   card moves measure the gyroscope bias perpendicular to gravity. The
///   bias is a Kalman estimate with its own covariance (``biasEstimate``):
///   the covariance grows slowly while the bias is unobservable
///   (``FusionParameters/biasRandomWalk``), is bounded by
///   ``FusionParameters/maximumBias``², and shrinks with each observation,
///   so a bias known from a rest moves only slowly in motion
///   (``FusionParameters/motionBiasNoise``) and cannot run away. Unless
///   the corrections keep disagreeing with it: where their mean over half a
///   minute of motion exceeds what noise and the covariance allow (a bias
///   ramping as the sensor warms up), the covariance is raised to it, and
///   the bias follows (covariance matching).
/// - The gyroscope is always integrated. When the card rests (steady
///   gyroscope and accelerometer for ``FusionParameters/restMinimumDuration``),
///   the rest measures the bias on all three axes and the rest is
///   integrated afresh with it: a card at rest does not drift, not even in
///   yaw. A rest far from the current estimate is accepted when it agrees
///   with the previous rest or when the accelerometer proves the card did
///   not turn; only a steady turn about the vertical that nothing can tell
///   from a changed bias keeps its rotation. See `GyroAccelFusion+Rest.swift`.
/// - Every reading enters the low-pass, however far from 1 g: the low-pass
///   is linear in the readings, so a translation that oscillates (a shake, a
///   violent push and pull) averages out whatever its size. Readings below
///   ``FusionParameters/usableAccelerationRange`` (free fall) weigh little
///   there, but cannot start it.
/// - A reading at the accelerometer's range (``FusionParameters/accelerometerRange``,
///   the device's absinfo) is clipped, not a measurement: from it until
///   ``FusionParameters/clippedHoldTime`` after the last one the
///   accelerometer does not correct the inclination, and the gyroscope
///   carries it alone; over one more hold the readings are faded back in.
/// - A gyroscope reading at its range (``FusionParameters/gyroscopeRange``)
///   is continued along the direction the rate was changing in
///   (``SaturatedTurn``), so the low-pass keeps its memory through a flick.
///
/// Orientation = `inclinationCorrection · gyroOrientation`, card → world.
/// `update` never allocates.
public struct GyroAccelFusion: AttitudeEstimator, Sendable {
  public let parameters: FusionParameters

  /// The estimated gyroscope bias, rad/s, card frame.
  public internal(set) var bias: Vector3 = .zero
  /// What ``bias`` is learned about (±``FusionParameters/maximumBias``) and
  /// what the rest test measures the steady rate from: zero, or a seeded
  /// calibration beyond ``FusionParameters/maximumBias`` (``seedBias(_:)``).
  var biasCentre: Vector3 = .zero
  /// True while the card rests: a rest window has been accepted and the
  /// readings have stayed steady since.
  public internal(set) var isAtRest = false
  /// Variance of the least known axis of ``bias``, (rad/s)².
  public var biasVariance: Double { biasCovariance.largestVariance }
  /// √d² of the time constant's law (``biasDrift2``), rad/s: the drift rate
  /// the bias covariance expects the bias error to leave in the low-pass
  /// along the two observed rows. A diagnostic (`AttitudeBench --errors`),
  /// to hold against a simulated recording's true bias.
  public var expectedBiasDrift: Double { biasDrift2.squareRoot() }
  /// The accelerometer time constant in motion that the law gives, seconds
  /// (``FusionParameters/accelerometerTimeConstant`` times the stretch). A
  /// diagnostic (`AttitudeBench --errors`).
  public var motionTimeConstant: Double { parameters.accelerometerTimeConstant / trust }
  /// The current orientation, card → world: the last sample's, computed
  /// again when asked (not stored at every sample).
  public var orientation: Quaternion { inclinationCorrection * gyroOrientation }

  /// Covariance of ``bias``, (rad/s)²: grows while the bias is unobservable,
  /// shrinks with every observation (inclination corrections in motion,
  /// rests), bounded by ``FusionParameters/maximumBias``².
  var biasCovariance: BiasCovariance
  /// True once a rest has measured the bias since the start or the last
  /// ``seedBias(_:)``.
  var isBiasConfirmed = false
  /// True once ``seedBias(_:)`` has given a stored bias: until a rest
  /// confirms it, the first rest replaces it however far it is.
  var isBiasSeeded = false
  /// The bias the last accepted rest left, and the variance of the least
  /// known axis, grown by the random walk since then: a rest that agrees
  /// with it is accepted however far motion has moved ``bias`` since.
  var confirmedBias = Vector3.zero
  var confirmedVariance: Double

  var gyroOrientation = Quaternion.identity
  /// The last sample's bias-corrected rotation rate, rad/s: a step across
  /// lost samples turns at the mean of it and the next.
  var lastRate = Vector3.zero
  /// A step longer than this is samples lost, seconds: motion sensors with a
  /// gyroscope report at 100 Hz or more, IIO hubs at 20 Hz at the slowest.
  static let lostSamplesStep = 0.05
  var inclinationCorrection = Quaternion.identity
  /// The low-passed specific force, g, almost-inertial frame, and its rate
  /// of change, g/s: the state of a second-order Butterworth low-pass.
  var filteredAcceleration = Vector3(0, 0, 1)
  var filteredAccelerationRate = Vector3.zero
  /// The same low-pass of the two horizontal rows of R (card → world), and
  /// of R·bias's horizontal part: what the low-passed corrections observe
  /// of the bias (see ``observeBiasInMotion(correction:interval:)``).
  var filteredRow1 = ButterworthState(Vector3(1, 0, 0))
  var filteredRow2 = ButterworthState(Vector3(0, 1, 0))
  var filteredRotatedBias = ButterworthState(.zero)
  var rowFiltersNeedStart = true
  var hasInclination = false
  /// The readings' sum since the inclination started, g, almost-inertial
  /// frame, their weight and their seconds: for the first
  /// ``FusionParameters/accelerometerTimeConstant`` the low-pass's output is
  /// their mean (VQF's start), not the first reading's direction, which a
  /// start in motion takes from a push; and the bias learns nothing from
  /// corrections that only converge the start.
  var startSum = Vector3.zero
  var startWeight = 0.0
  var startDuration = 0.0

  /// Accelerometer readings gathered since the last correction.
  struct CorrectionBlock: Sendable {
    /// Weighted sum of the readings in the almost-inertial frame, g, and
    /// the sum of the weights.
    var inertialSum = Vector3.zero
    var weightSum = 0.0
    /// Sum of the squared bias-corrected rotation rates, (rad/s)².
    var rotation2 = 0.0
    /// Sum of the readings' squared jumps from the last block's mean, g².
    var jump2 = 0.0
    var count = 0
    /// Seconds of usable readings since the last correction.
    var duration = 0.0

    /// Adds a usable reading that came `dt` seconds after the previous
    /// sample. Only usable readings add time: a reading after a free fall
    /// does not get the weight of the fall.
    mutating func add(
      _ inertial: Vector3, rotation2 w: Double, weight: Double, jump2 j: Double,
      interval dt: Double
    ) {
      inertialSum += inertial * weight
      weightSum += weight
      rotation2 += w
      jump2 += j
      count &+= 1  // a block holds a few readings: no overflow test
      duration += dt
    }
  }
  var block = CorrectionBlock()
  /// How many seconds into the current block the inclination next follows
  /// the readings: ``FusionParameters/correctionInterval`` in motion and at
  /// rest. During the start the mean over t seconds moves as fast as a
  /// low-pass with time constant t, so it is followed every
  /// ``FusionParameters/correctionInterval`` · t/τ₀ (``followStart()``): a
  /// 0.1 s-old mean held for a whole 20 ms block was 3° stale on a moving
  /// card.
  var blockInterval = 0.0

  var timeStep: TimeStep
  /// Natural frequencies of the accelerometer low-pass in motion and at
  /// rest, rad/s.
  let accelerationFrequency: Double
  let restAccelerationFrequency: Double
  /// 1 / ``FusionParameters/restFilterTimeConstant``, 1/s.
  let restRate: Double
  let shockScale2: Double
  /// Variance of the bias error that one accelerometer time constant of
  /// motion reveals, times that time constant, (rad/s)²·s.
  let motionBiasNoise2Time: Double
  let motionBiasTimeConstant: Double
  let usableMagnitude2: ClosedRange<Double>
  /// ``FusionParameters/accelerometerRange``, g.
  let clipLimit: Double
  /// ``FusionParameters/gyroscopeRange``, rad/s.
  let saturationLimit: Double
  /// The square of ``clipLimit``, and of ``saturationLimit`` less the
  /// largest bias's length (a seeded ``biasCentre`` and what is learnt about it).
  let clipLimit2: Double
  /// 1 / ``FusionParameters/clippedHoldTime``.
  let inverseClippedHoldTime: Double
  var saturationLimit2: Double
  /// The time until which the accelerometer does not correct the
  /// inclination: ``FusionParameters/clippedHoldTime`` after the last
  /// clipped reading, seconds.
  var clippedUntil = -Double.infinity
  /// The end of the fade that follows a clip hold (one hold after it): until
  /// then the low-pass takes the readings' part away from the gravity it
  /// holds in proportion to the time since the hold.
  var clipFadeUntil = -Double.infinity
  /// The turn a saturated gyroscope did not report (``SaturatedTurn``).
  var saturatedTurn: SaturatedTurn
  /// The square of ``FusionParameters/saturationOnset`` of
  /// ``saturationLimit2``'s rate: a rate above it is
  /// near the range, and goes to ``saturatedTurn``.
  var nearSaturation2 = 0.0

  /// How far the accelerometer is trusted now: τ₀ over the time constant in
  /// motion (above 1 while fast turns shorten it, below while pushes
  /// lengthen it).
  var trust = 1.0
  /// The part of the specific force across the low-passed gravity, g,
  /// almost-inertial frame, through a second-order low-pass over
  /// ``FusionParameters/translationFilterTimeConstant``: the slow linear
  /// acceleration that would leak through the accelerometer low-pass.
  var slowTranslation = ButterworthState(.zero)
  /// The mean square of the bias-corrected rotation rate over the
  /// low-pass's memory (twice ``FusionParameters/accelerometerTimeConstant``),
  /// (rad/s)².
  var recentRotation = 0.0
  /// 1 / the low-pass's memory, 1/s.
  let memoryRate: Double
  /// The means over motion (``FusionParameters/usageTimeConstant``) of the
  /// square of ``slowTranslation``, g², and of ``recentRotation``: how the
  /// card is used.
  var usageTranslation: Double
  var usageRotation: Double
  /// `T/(2s²)` of the time constant's law, and its `p₀` and `ω₀²`.
  let usageGain: Double
  let translationFloor: Double
  let restingRotation2: Double
  /// 1/s² of the time constant's law, s²: a drift rate squared over it is
  /// the squared rotation rate whose scale error drifts as fast.
  let inverseScaleError2: Double
  /// The expected square of the drift rate that the bias error leaves in
  /// the low-pass, hᵀPh over its two rows (the bias update's last
  /// ``observeBiasInMotion(correction:interval:)``), (rad/s)².
  var biasDrift2: Double
  /// The cubes of the time constant's bounds, and 1/τ₀³.
  let minimumTimeConstant3: Double
  let maximumTimeConstant3: Double
  let inverseTimeConstant3: Double
  /// τ₀², s².
  let timeConstant2: Double
  /// 1 / ``FusionParameters/usageTimeConstant``, 1/s.
  let usageRate: Double
  /// The mean over ``FusionParameters/usageTimeConstant`` of motion of the
  /// bias error that each block's innovation (the two observed rows of
  /// ``observeBiasInMotion(correction:interval:)``) points to, rad/s, card
  /// frame; zero at rest.
  var sustainedError = Vector3.zero
  /// What noise alone leaves in the square of that mean, (rad/s)²:
  /// ``FusionParameters/motionBiasNoise``² on each of the two observed
  /// rows. Once, not divided by the τ₀s in the mean: what misleads the
  /// corrections in motion (a lean, a push that persists, a merry-go-round)
  /// is not new from one τ₀ to the next. And s², which times the square
  /// rotation rate is what the scale error's drift adds.
  let sustainedNoise2: Double
  let scaleError2: Double
  let restDisagreementScale2: Double
  /// The readings' recent course, from which a knock jumps: the last
  /// correction block's (weighted) mean, g, almost-inertial frame.
  var recentAcceleration = Vector3.zero
  /// The mean square of that block's readings' jumps, g².
  var recentJump2 = 0.0
  /// Whether ``FusionParameters/shockScale`` is finite: only then does a
  /// reading's distance from 1 g matter.
  let measuresDeviation: Bool
  /// The natural frequency of ``slowTranslation``'s low-pass, rad/s.
  let translationFrequency: Double

  var restGyroMean = Vector3.zero
  var restAccelMean = Vector3(0, 0, 1)
  /// The current stretch of steady readings, if any.
  var restWindow = RestWindow.closed
  /// Squared distance from ``bias`` within which a short-term gyroscope
  /// mean is consistent with it, (rad/s)²; updated with the covariance.
  var restGate2 = 0.0
  let biasRandomWalk2: Double
  let restGyroscopeNoise2: Double
  let restBiasGate2: Double
  let restGyroscopeLimit2: Double
  let restAccelerometerLimit2: Double
  /// Variance of the short-term gyroscope mean of a still card, (rad/s)².
  let shortTermMeanVariance: Double
  let maximumBias2: Double

  public init(parameters: FusionParameters = .init()) {
    self.parameters = parameters
    timeStep = TimeStep(maximumStep: parameters.maximumStep)
    // A Butterworth low-pass whose delay is the time constant τ: ω = √2/τ.
    accelerationFrequency = 2.0.squareRoot() / parameters.accelerometerTimeConstant
    restAccelerationFrequency =
      2.0.squareRoot()
      / min(parameters.restAccelerometerTimeConstant, parameters.accelerometerTimeConstant)
    restRate = 1 / max(parameters.restFilterTimeConstant, 1e-9)
    shockScale2 = parameters.shockScale * parameters.shockScale
    translationFrequency = 2.0.squareRoot() / max(parameters.translationFilterTimeConstant, 1e-9)
    let tau0 = parameters.accelerometerTimeConstant
    let scaleError = parameters.gyroscopeScaleError
    usageGain =
      scaleError > 0 ? parameters.translationFilterTimeConstant / (2 * scaleError * scaleError) : 0
    restingRotation2 = parameters.restingRotationRate * parameters.restingRotationRate
    inverseScaleError2 = scaleError > 0 ? 1 / (scaleError * scaleError) : 0
    // p₀ such that a card that has not moved yet gets τ₀.
    translationFloor = usageGain > 0 ? tau0 * tau0 * tau0 * restingRotation2 / usageGain : 0
    let shortest = min(parameters.minimumAccelerometerTimeConstant, tau0)
    let longest = max(parameters.maximumAccelerometerTimeConstant, tau0)
    minimumTimeConstant3 = shortest * shortest * shortest
    maximumTimeConstant3 = longest * longest * longest
    inverseTimeConstant3 = 1 / (tau0 * tau0 * tau0)
    timeConstant2 = tau0 * tau0
    usageRate = 1 / max(parameters.usageTimeConstant, 1e-9)
    sustainedNoise2 = 2 * parameters.motionBiasNoise * parameters.motionBiasNoise
    scaleError2 = scaleError * scaleError
    usageTranslation = 0
    usageRotation = 0
    memoryRate = 1 / (2 * tau0)
    restDisagreementScale2 = parameters.restDisagreementScale * parameters.restDisagreementScale
    measuresDeviation = shockScale2.isFinite
    motionBiasNoise2Time =
      parameters.motionBiasNoise * parameters.motionBiasNoise
      * parameters.accelerometerTimeConstant
    motionBiasTimeConstant = parameters.motionBiasTimeConstant
    maximumBias2 = parameters.maximumBias * parameters.maximumBias
    biasCovariance = BiasCovariance(variance: maximumBias2)
    biasDrift2 = 2 * maximumBias2
    confirmedVariance = maximumBias2
    biasRandomWalk2 = parameters.biasRandomWalk * parameters.biasRandomWalk
    restGyroscopeNoise2 = parameters.restGyroscopeNoise * parameters.restGyroscopeNoise
    restBiasGate2 = parameters.restBiasGate * parameters.restBiasGate
    restGyroscopeLimit2 = parameters.restGyroscopeThreshold * parameters.restGyroscopeThreshold
    restAccelerometerLimit2 =
      parameters.restAccelerometerThreshold * parameters.restAccelerometerThreshold
    // A first-order low-pass with time constant τ averages white noise like a 2τ mean.
    shortTermMeanVariance = restGyroscopeNoise2 / (2 * parameters.restFilterTimeConstant)
    let range = parameters.usableAccelerationRange
    usableMagnitude2 = (range.lowerBound * range.lowerBound)...(range.upperBound * range.upperBound)
    clipLimit = parameters.accelerometerRange
    saturationLimit = parameters.gyroscopeRange
    clipLimit2 = clipLimit * clipLimit
    inverseClippedHoldTime = 1 / parameters.clippedHoldTime
    saturationLimit2 = 0
    saturatedTurn = SaturatedTurn(parameters)
    updateSaturationGate()
    updateRestGate()
  }

  /// No bias-corrected rate shorter than ``saturationLimit`` less the
  /// largest bias can have an axis at the limit.
  mutating func updateSaturationGate() {
    let largestBias = parameters.maximumBias * 3.0.squareRoot() + biasCentre.length
    let gate = max(0, saturationLimit - largestBias)
    saturationLimit2 = gate * gate
    nearSaturation2 = saturationLimit2 * parameters.saturationOnset * parameters.saturationOnset
  }

  /// A fusion that starts from a stored bias estimate (see ``seedBias(_:)``).
  public init(parameters: FusionParameters = .init(), initialBias: GyroBiasEstimate?) {
    self.init(parameters: parameters)
    if let initialBias { seedBias(initialBias) }
  }

  /// The bias estimate, its uncertainty and whether a rest has confirmed it.
  public var biasEstimate: GyroBiasEstimate {
    let v = biasCovariance.diagonal
    return GyroBiasEstimate(
      bias: bias, uncertainty: Vector3(v.x.squareRoot(), v.y.squareRoot(), v.z.squareRoot()),
      isConfirmedByRest: isBiasConfirmed)
  }

  /// Starts from a bias known from elsewhere (a stored calibration): it is
  /// used at once, with its uncertainty (at least
  /// ``FusionParameters/restGyroscopeNoise`` per axis, at most
  /// ``FusionParameters/maximumBias``). It is not trusted blindly: the first
  /// rest either confirms it (the two are weighted by their variances) or,
  /// if it contradicts it, replaces it.
  ///
  /// A calibration knows biases the fusion cannot learn by itself: up to
  /// ``GyroBiasCalibration/maximumBias`` on an axis. Where it is beyond
  /// ``FusionParameters/maximumBias``, the seed becomes the centre of what the
  /// fusion learns on that axis (±``FusionParameters/maximumBias`` about it)
  /// and of its rest test, as zero is without a calibration.
  public mutating func seedBias(_ estimate: GyroBiasEstimate) {
    let floor = restGyroscopeNoise2
    func variance(_ s: Double) -> Double {
      s.isFinite ? min(max(s * s, floor), maximumBias2) : maximumBias2
    }
    let limit = GyroBiasCalibration.maximumBias
    func seed(_ b: Double) -> Double { min(max(b, -limit), limit) }
    let seeded = estimate.bias.isFinite ? estimate.bias : .zero
    bias = Vector3(seed(seeded.x), seed(seeded.y), seed(seeded.z))
    func centre(_ b: Double) -> Double { abs(b) > parameters.maximumBias ? b : 0 }
    biasCentre = Vector3(centre(bias.x), centre(bias.y), centre(bias.z))
    updateSaturationGate()
    let u = estimate.uncertainty
    biasCovariance = BiasCovariance(variances: Vector3(variance(u.x), variance(u.y), variance(u.z)))
    biasDrift2 = 2 * biasCovariance.largestVariance
    sustainedError = .zero
    confirmedBias = bias
    confirmedVariance = biasCovariance.largestVariance
    isBiasConfirmed = false
    isBiasSeeded = true
    restWindow.isOpen = false
    isAtRest = false
    updateRestGate()
  }

  public mutating func reset() {
    gyroOrientation = .identity
    inclinationCorrection = .identity
    hasInclination = false
    block = CorrectionBlock()
    timeStep.reset()
    trust = 1
    slowTranslation = ButterworthState(.zero)
    usageTranslation = 0
    usageRotation = 0
    recentRotation = 0
    sustainedError = .zero
    recentAcceleration = .zero
    recentJump2 = 0
    restWindow.isOpen = false
    isAtRest = false
    clippedUntil = -.infinity
    clipFadeUntil = -.infinity
    saturatedTurn = SaturatedTurn(parameters)
  }

  /// Inlined into the caller, which so hands the sample's fields over in
  /// registers: passed by address, the caller's fresh copy of the sample is
  /// read back in pieces that straddle its stores, and every step waits for
  /// the previous one to retire (a store-forwarding stall). The rotation
  /// rate goes as a vector (zero without a gyroscope) and a flag: an
  /// optional vector goes in integer registers, and is moved back.
  @inlinable @inline(__always)
  public mutating func update(_ sample: MotionSample) -> AttitudeEstimate? {
    update(
      time: sample.time, acceleration: sample.acceleration,
      gyroscope: sample.rotationRate ?? .zero, hasGyroscope: sample.rotationRate != nil)
  }

  /// ``update(_:)`` with the sample's fields: seconds, g and rad/s (card
  /// frame); `gyro` is zero when `hasGyroscope` is false.
  @usableFromInline
  mutating func update(
    time: Double, acceleration: Vector3, gyroscope gyro: Vector3, hasGyroscope: Bool
  ) -> AttitudeEstimate? {
    // x·0 is ±0 for a finite x and NaN for an infinity or a NaN (see
    // `MotionSample.isFinite`); a missing gyroscope's zeros add nothing.
    let zeros =
      time * 0 + acceleration.x * 0 + acceleration.y * 0 + acceleration.z * 0 + gyro.x * 0
      + gyro.y * 0 + gyro.z * 0
    guard zeros == 0 else { return nil }

    let dt: Double
    switch timeStep.advance(to: time) {
    case .interval(let step):
      dt = step
    case .first, .gap:
      // Nothing to integrate across; take the inclination afresh.
      dt = 0
      hasInclination = false
      restGyroMean = gyro
      restAccelMean = acceleration
      restWindow.isOpen = false
      isAtRest = false
    }

    var rate = gyro - bias
    var rate2 = rate.lengthSquared
    if rate2 >= nearSaturation2 {
      // Near the gyroscope's range: a saturated axis is continued.
      rate = saturatedTurn.continued(gyro, time: time) - bias
      rate2 = rate.lengthSquared
      if hasInclination && saturatedTurn.lostPartUnknown
        && max(abs(gyro.x), max(abs(gyro.y), abs(gyro.z))) >= saturationLimit
      {
        // Saturated, and not continued: the frame jumped. The low-pass
        // restarts from the readings after this one, as at the start.
        clippedUntil = max(clippedUntil, time)
        clipFadeUntil = -.infinity
        block = CorrectionBlock()
        startSum = .zero
        startWeight = 0
        startDuration = 0
        blockInterval = 0
        rowFiltersNeedStart = true
      }
    }
    // The new orientation stays in a local for the whole step: read back from
    // `self` right after being stored, it would wait for the store to reach
    // the cache (the compiler's loads straddle its stores), every sample.
    var g = gyroOrientation
    if dt > 0 {
      // Across samples lost (a step longer than any motion sensor's
      // interval), the card turned at neither end's rate alone: the mean of
      // the two is the turn's second-order estimate.
      let step: Quaternion
      if dt > Self.lostSamplesStep {
        step = Quaternion(rotationRate: (rate + lastRate) * 0.5, interval: dt)
      } else {
        step = Quaternion(rotationRate: rate, rateSquared: rate2, interval: dt)
      }
      g = (g * step).renormalized
    }
    lastRate = rate
    if hasGyroscope {
      detectRest(gyro: gyro, acceleration: acceleration, dt: dt, orientation: &g)
    }
    gyroOrientation = g

    let magnitude2 = acceleration.lengthSquared
    // No axis reaches a limit while the vector's length is below it: one
    // comparison for almost every sample (the gyroscope's, against half the
    // limit less the largest bias, is above).
    if magnitude2 >= clipLimit2
      && max(abs(acceleration.x), max(abs(acceleration.y), abs(acceleration.z))) >= clipLimit
    {
      // Clipped: this reading, the block it ends and the readings of the
      // next hold are not evidence of gravity. Nor is the trend of the
      // unclipped readings that began the shake, which the low-pass's rate
      // holds: it keeps what it knew of gravity, not where it was heading.
      if time > clippedUntil { filteredAccelerationRate = .zero }
      clippedUntil = time + parameters.clippedHoldTime
      clipFadeUntil = clippedUntil + parameters.clippedHoldTime
      block = CorrectionBlock()
    }
    // Every other reading stays in the mean, weak ones (free fall, the far
    // side of a shake) and strong ones (a violent push) alike: the low-pass
    // averages vectors, and leaving any out would bias the mean of a shake
    // toward its other half. Weak ones cannot give the first inclination.
    if time > clippedUntil && (hasInclination || magnitude2 >= usableMagnitude2.lowerBound) {
      let inertial = g.rotate(acceleration)
      if hasInclination {
        var weight = 1.0
        // With it off (infinite) the low-pass is linear in the readings.
        var jump2 = 0.0
        if measuresDeviation {
          // A knock is a spike: a jump from the readings' recent course
          // beyond their recent jumps. A push follows its course, a shake
          // or a violent translation jumps all the time. The jump is a
          // vector, so a shake's push and pull weigh alike and its mean
          // stays zero (the magnitude's jump is larger on the side that
          // adds to gravity).
          jump2 = (inertial - recentAcceleration).lengthSquared
          let calm = shockScale2 + recentJump2
          weight = calm / (calm + jump2)
        }
        block.add(inertial, rotation2: rate2, weight: weight, jump2: jump2, interval: dt)
      } else {
        filteredAcceleration = inertial
        filteredAccelerationRate = .zero
        startSum = inertial
        startWeight = 1
        startDuration = 0
        blockInterval = 0
        recentAcceleration = inertial
        recentJump2 = 0
        rowFiltersNeedStart = true
        _ = correctInclination()
        hasInclination = true
        block = CorrectionBlock()
      }
    }
    if block.count > 0 && block.duration >= blockInterval {
      applyCorrection(learnBias: hasGyroscope && !isAtRest, time: time)
    }
    let orientation = inclinationCorrection * g
    return AttitudeEstimate(
      orientation: orientation, rotationRate: hasGyroscope ? rate : nil)
  }

  /// Low-passes the block's mean acceleration, corrects the inclination and
  /// learns the bias from the correction; starts a new block. Before the
  /// block is whole (during the start), only follows the start's mean.
  mutating func applyCorrection(learnBias: Bool, time: Double) {
    guard block.duration >= parameters.correctionInterval else { return followStart() }
    let inverseCount = 1 / Double(block.count)
    let dt = block.duration
    let mean = block.inertialSum / block.weightSum
    recentAcceleration = mean
    recentJump2 = block.jump2 * inverseCount
    // Slow linear acceleration: the mean's part across the low-passed
    // gravity, low-passed over about a second (a fast shake averages out
    // in the accelerometer low-pass anyway; a slow push does not).
    let gravity = filteredAcceleration
    let across = mean - gravity * (mean.dot(gravity) / max(gravity.lengthSquared, 1e-12))
    slowTranslation.step(across, frequency: translationFrequency, interval: dt)
    // The drift the low-pass holds is the one of its memory (≈ 2τ): the
    // rotation over that, rests included (a turn that has just begun has
    // drifted little yet). Backward Euler (x/(1 + x)): dt/τ is a few
    // thousandths.
    let m = dt * memoryRate
    recentRotation += m / (1 + m) * (block.rotation2 * inverseCount - recentRotation)
    // Without a gyroscope (or at rest) no bias turns the frame.
    let stretch = usageStretch(
      translation2: slowTranslation.value.lengthSquared, rotation2: recentRotation,
      biasDrift2: learnBias ? biasDrift2 : 0, interval: dt)
    trust = 1 / stretch
    // At rest the accelerometer reads gravity alone: it may correct fast,
    // but only as far as it disagrees with the estimate beyond its noise
    // (the disagreement is the slow part across gravity, as above). A wrong
    // inclination converges with the rest time constant; a right one keeps
    // the motion's, which lets less of the accelerometer's noise through.
    let omega: Double
    if isAtRest {
      let e2 = slowTranslation.value.lengthSquared
      omega =
        accelerationFrequency + (restAccelerationFrequency - accelerationFrequency) * e2
        / (e2 + restDisagreementScale2)
    } else {
      omega = accelerationFrequency * trust
    }
    let starting = startDuration < parameters.accelerometerTimeConstant
    if starting {
      startSum += block.inertialSum
      startWeight += block.weightSum
      startDuration += dt
      blockInterval =
        parameters.correctionInterval * min(1, startDuration / parameters.accelerometerTimeConstant)
      filteredAcceleration = startSum / startWeight
      filteredAccelerationRate = .zero
    } else if time < clipFadeUntil {
      // A shake that clipped may go on below the range. Taken up at once,
      // at whatever phase its oscillation is in, its part-period mean would
      // enter the low-pass as a step; faded in, it averages out.
      let w = 1 - (clipFadeUntil - time) * inverseClippedHoldTime
      let faded = filteredAcceleration + (mean - filteredAcceleration) * w
      filterAcceleration(faded, frequency: omega, interval: dt)
    } else {
      filterAcceleration(mean, frequency: omega, interval: dt)
    }
    block = CorrectionBlock()
    // The bias may have wandered since it was last observed.
    let growth = biasRandomWalk2 * dt
    biasCovariance.grow(by: growth, limit: maximumBias2)
    confirmedVariance = min(confirmedVariance + growth, maximumBias2)
    defer { updateRestGate() }
    guard let correction = correctInclinationInline() else { return }
    let toCard = (inclinationCorrection * gyroOrientation).conjugate
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
    // A rest measures the bias itself: what the innovations said before is old.
    if isAtRest { sustainedError = .zero }
    guard learnBias, !starting, dt > 0 else { return }
    observeBiasInMotion(correction: correction, interval: dt)
  }

  /// Between the blocks of the start: the inclination follows the mean of
  /// all the readings so far, this block's included. Only the mean and the
  /// correction: what else a block measures waits for its end.
  mutating func followStart() {
    filteredAcceleration =
      (startSum + block.inertialSum) / (startWeight + block.weightSum)
    _ = correctInclination()
    blockInterval =
      block.duration + parameters.correctionInterval * (startDuration + block.duration)
      / parameters.accelerometerTimeConstant
  }

  /// The accelerometer time constant in motion over
  /// ``FusionParameters/accelerometerTimeConstant``: the cube root of
  /// `T·(p + p₀)/(2(s²(ω² + ω₀²) + d²))` over τ₀³, within the bounds (see
  /// ``FusionParameters/gyroscopeScaleError``). `d²` is ``biasDrift2``: a
  /// bias not known yet drifts the almost-inertial frame as a scale error
  /// does, and the low-pass lags either drift by τ (docs/bench-attitude.md,
  /// `usageStretch`). Updates the means of motion.
  @inline(__always)
  mutating func usageStretch(
    translation2 p: Double, rotation2 w2: Double, biasDrift2 d2: Double, interval dt: Double
  ) -> Double {
    guard usageGain > 0 else { return 1 }
    if !isAtRest {
      // A bias that is not known yet turns the almost-inertial frame, and
      // the low-pass lags that drift by about the bias error times τ: that
      // much of the disagreement is the gyroscope's, not a push (counted as
      // a push, it lengthened τ and slowed the bias's own correction: a bias
      // 2.6 °/s off was 0.53 °/s off after 40 s of turning, 0.06 °/s now).
      let push = max(0, p - biasCovariance.largestVariance * timeConstant2)
      // Backward Euler (x/(1 + x)); dt/τ is a thousandth here.
      let x = dt * usageRate
      let alpha = x / (1 + x)
      usageTranslation += alpha * (push - usageTranslation)
      usageRotation += alpha * (w2 - usageRotation)
    }
    let tau3 =
      usageGain * (usageTranslation + translationFloor)
      / (usageRotation + restingRotation2 + d2 * inverseScaleError2)
    return Self.cubeRoot(
      min(max(tau3, minimumTimeConstant3), maximumTimeConstant3) * inverseTimeConstant3)
  }

  /// One step of the second-order Butterworth low-pass (damping 1/√2,
  /// natural frequency `omega`) of the specific force, semi-implicit Euler:
  /// ω·dt is a few hundredths, so the response is the continuous filter's.
  /// Against a first-order pair with the same delay it rolls the shaking of
  /// a hand (around 1 Hz) off twice as far.
  @inline(__always)
  mutating func filterAcceleration(_ input: Vector3, frequency omega: Double, interval dt: Double) {
    var state = ButterworthState(filteredAcceleration, rate: filteredAccelerationRate)
    state.step(input, frequency: omega, interval: dt)
    filteredAcceleration = state.value
    filteredAccelerationRate = state.rate
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
  /// ``FusionParameters/motionBiasNoise``², less when the readings stray
  /// from 1 g. The gain never exceeds `dt/`
  /// ``FusionParameters/motionBiasTimeConstant``: a faster feedback would
  /// outrun the low-pass it learns from and ring.
  mutating func observeBiasInMotion(correction: Vector3, interval dt: Double) {
    let h1 = filteredRow1.value
    let h2 = filteredRow2.value
    let u1 = biasCovariance.multiply(h1)
    let u2 = biasCovariance.multiply(h2)
    let inverseDt = 1 / dt
    let r = max(
      motionBiasNoise2Time * inverseDt / trust,
      biasCovariance.largestVariance * motionBiasTimeConstant * inverseDt)
    let d11 = h1.dot(u1)
    let d22 = h2.dot(u2)
    biasDrift2 = d11 + d22
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
    biasCovariance.subtract(u1, u1, scale: s22 * inverseDeterminant)
    biasCovariance.subtract(u1, u2, scale: -2 * s12 * inverseDeterminant)
    biasCovariance.subtract(u2, u2, scale: s11 * inverseDeterminant)
    biasCovariance.keepPositive(1e-3 * restGyroscopeNoise2)
    matchSustainedInnovation(Vector3(z1, z2, 0), rows: h1, h2, interval: dt)
    clampBias()
  }

  /// Covariance matching (Mehra 1972) for a bias that moves faster than its
  /// random walk (``FusionParameters/biasRandomWalk``, a steady sensor's):
  /// a gyroscope warming up ramps by degrees per second in minutes, and the
  /// estimate, sure of a bias a rest measured, lags further and further
  /// while τ lengthens (``usageStretch``'s `d²` is what the covariance
  /// allows). Its innovations then no longer average out: the mean over
  /// ``FusionParameters/usageTimeConstant`` of motion of the bias errors
  /// they point to (card frame) is the bias error, plus noise whose
  /// expected square is known (``sustainedNoise2``, and the scale error's drift s²ω² that the
  /// law counts as the turn's). Where the mean's square exceeds that noise
  /// and what the covariance allows along its direction, the covariance is
  /// raised to it there: the bias follows, and τ shortens with the drift
  /// (the figures: docs/bench-attitude.md, `matchSustainedInnovation`).
  @inline(__always)
  mutating func matchSustainedInnovation(
    _ innovation: Vector3, rows h1: Vector3, _ h2: Vector3, interval dt: Double
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
    let allowed = error.dot(biasCovariance.multiply(error)) / e2
    let excess = e2 - noise - allowed
    if excess > 0 { biasCovariance.subtract(error, error, scale: -excess / e2) }
  }

  /// The distance within which a short-term gyroscope mean agrees with
  /// ``bias``, for rest detection.
  mutating func updateRestGate() {
    restGate2 = restBiasGate2 * (biasCovariance.largestVariance + shortTermMeanVariance)
  }

  /// Turns the almost-inertial frame so the filtered acceleration points up.
  /// Returns the correction's rotation vector (radians, world frame,
  /// horizontal), or nil when there is no direction to correct to.
  @inline(never)
  mutating func correctInclination() -> Vector3? { correctInclinationInline() }

  /// ``correctInclination()``, inlined into ``applyCorrection(learnBias:time:)``
  /// (once a block, where the call cost about 20 instructions); the rare
  /// callers (the start, between the start's blocks) keep the call, out of
  /// `update`'s registers.
  @inline(__always)
  mutating func correctInclinationInline() -> Vector3? {
    let w = inclinationCorrection.rotate(filteredAcceleration)
    let horizontal2 = w.x * w.x + w.y * w.y
    let correction: Quaternion
    if w.z > 0 && horizontal2 < 1e-6 * w.z * w.z {
      // Almost up already (every step but the first): the shortest rotation
      // onto +z is (2wz, wy, −wx, 0) to within 1e-13 rad, then unit length.
      let k = 0.5 / w.z
      correction = Quaternion(w: 1, x: w.y * k, y: -w.x * k, z: 0).renormalized
    } else {
      // The shortest rotation from w/n onto +z: (n + wz, wy, −wx, 0) / √(2n(n + wz)).
      let n = (horizontal2 + w.z * w.z).squareRoot()
      let s = n + w.z
      if s > 1e-9 * n {
        let k = 1 / (2 * n * s).squareRoot()
        correction = Quaternion(w: s * k, x: w.y * k, y: -w.x * k, z: 0)
      } else if n > 0 {
        correction = Quaternion(w: 0, x: 1, y: 0, z: 0)  // upside down: a half turn
      } else {
        return nil
      }
    }
    inclinationCorrection = (correction * inclinationCorrection).renormalized
    return Vector3(2 * correction.x, 2 * correction.y, 0)
  }

  /// ∛r for 0.5 ≤ r ≤ 8 to within 1e-6 (three Newton steps from the chord
  /// through (1, 1) and (8, 2)), Foundation's `cbrt` elsewhere, which
  /// costs more than the rest of a correction block. The default bounds of
  /// the time constant give 0.73…8.
  @inline(__always)
  static func cubeRoot(_ r: Double) -> Double {
    guard r >= 0.5 && r <= 8 else { return cbrt(r) }
    var y = 1 + (r - 1) * (1.0 / 7)
    y = (2 * y + r / (y * y)) * (1.0 / 3)
    y = (2 * y + r / (y * y)) * (1.0 / 3)
    y = (2 * y + r / (y * y)) * (1.0 / 3)
    return y
  }

  /// Keeps ``bias`` within ``FusionParameters/maximumBias`` of
  /// ``biasCentre``. Inlined: it runs once a block, and the call cost about
  /// as much as the clamp.
  @inline(__always)
  mutating func clampBias() {
    let m = parameters.maximumBias
    let c = biasCentre
    bias = Vector3(
      min(max(bias.x, c.x - m), c.x + m), min(max(bias.y, c.y - m), c.y + m),
      min(max(bias.z, c.z - m), c.z + m))
  }
}
