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
///   from a changed bias keeps its rotation. See ``RestDetector`` and
///   ``BiasObserver/acceptsRest(_:)``.
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
///
/// The parts, each of one job: ``BiasObserver`` (the bias and what it
/// learns in motion and at rest), ``RestDetector`` (steady readings and
/// their windows), ``AccelerometerGates`` (what a reading may correct),
/// ``TimeConstantLaw`` (how fast the low-pass follows) and
/// ``SaturatedTurn``. The fusion integrates the gyroscope, keeps the
/// accelerometer low-pass and turns the inclination.
public struct GyroAccelFusion: AttitudeEstimator, Sendable {
  public let parameters: FusionParameters

  /// The estimated gyroscope bias, rad/s, card frame.
  public internal(set) var bias: Vector3 {
    get { observer.bias }
    set { observer.bias = newValue }
  }
  /// True while the card rests: a rest window has been accepted and the
  /// readings have stayed steady since.
  public internal(set) var isAtRest: Bool {
    get { rest.isAtRest }
    set { rest.isAtRest = newValue }
  }
  /// Variance of the least known axis of ``bias``, (rad/s)².
  public var biasVariance: Double { observer.covariance.largestVariance }
  /// √d² of the time constant's law (``BiasObserver/drift2``), rad/s: the
  /// drift rate the bias covariance expects the bias error to leave in the
  /// low-pass along the two observed rows. A diagnostic (`AttitudeBench
  /// --errors`), to hold against a simulated recording's true bias.
  public var expectedBiasDrift: Double { observer.drift2.squareRoot() }
  /// The accelerometer time constant in motion that the law gives, seconds
  /// (``FusionParameters/accelerometerTimeConstant`` times the stretch). A
  /// diagnostic (`AttitudeBench --errors`).
  public var motionTimeConstant: Double { parameters.accelerometerTimeConstant / trust }
  /// The current orientation, card → world: the last sample's, computed
  /// again when asked (not stored at every sample).
  public var orientation: Quaternion { inclinationCorrection * gyroOrientation }

  /// The bias, its covariance, and what motion and rests tell of it.
  var observer: BiasObserver
  var rest: RestDetector
  var gates: AccelerometerGates
  var law: TimeConstantLaw
  /// The turn a saturated gyroscope did not report (``SaturatedTurn``).
  var saturatedTurn: SaturatedTurn

  /// ``TimeConstantLaw/trust``: τ₀ over the time constant in motion.
  var trust: Double { law.trust }
  /// ``TimeConstantLaw/slowTranslation``.
  var slowTranslation: ButterworthState { law.slowTranslation }

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
  /// Which rates are near the gyroscope's range.
  var saturationGate: SaturationGate

  public init(parameters: FusionParameters = .init()) {
    self.parameters = parameters
    timeStep = TimeStep(maximumStep: parameters.maximumStep)
    observer = BiasObserver(parameters)
    rest = RestDetector(parameters)
    gates = AccelerometerGates(parameters)
    law = TimeConstantLaw(parameters)
    saturatedTurn = SaturatedTurn(parameters)
    saturationGate = SaturationGate(parameters, centre: .zero)
    updateRestGate()
  }

  /// The distance within which a short-term gyroscope mean agrees with
  /// ``bias``, for rest detection.
  mutating func updateRestGate() {
    rest.updateGate(biasVariance: observer.covariance.largestVariance)
  }

  /// A fusion that starts from a stored bias estimate (see ``seedBias(_:)``).
  public init(parameters: FusionParameters = .init(), initialBias: GyroBiasEstimate?) {
    self.init(parameters: parameters)
    if let initialBias { seedBias(initialBias) }
  }

  /// The bias estimate, its uncertainty and whether a rest has confirmed it.
  public var biasEstimate: GyroBiasEstimate {
    let v = observer.covariance.diagonal
    return GyroBiasEstimate(
      bias: bias, uncertainty: Vector3(v.x.squareRoot(), v.y.squareRoot(), v.z.squareRoot()),
      isConfirmedByRest: observer.isConfirmed)
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
    observer.seed(estimate)
    saturationGate.update(centre: observer.centre)
    rest.stop()
    updateRestGate()
  }

  public mutating func reset() {
    gyroOrientation = .identity
    inclinationCorrection = .identity
    hasInclination = false
    block = CorrectionBlock()
    timeStep.reset()
    law.reset()
    observer.sustainedError = .zero
    gates.reset()
    rest.stop()
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
      rest.restart(gyro: gyro, acceleration: acceleration)
    }

    var rate = gyro - observer.bias
    var rate2 = rate.lengthSquared
    if rate2 >= saturationGate.near2 {
      // Near the gyroscope's range: a saturated axis is continued.
      rate = saturatedTurn.continued(gyro, time: time) - observer.bias
      rate2 = rate.lengthSquared
      if hasInclination && saturatedTurn.lostPartUnknown
        && saturationGate.isSaturated(gyro)
      {
        // Saturated, and not continued: the frame jumped. The low-pass
        // restarts from the readings after this one, as at the start.
        gates.holdAfterJump(at: time)
        restartLowPass()
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
    if hasGyroscope
      && rest.add(gyro: gyro, acceleration: acceleration, dt: dt, orientation: g, bias: observer)
    {
      closeRestWindow(orientation: &g)
    }
    gyroOrientation = g

    let magnitude2 = acceleration.lengthSquared
    // The gyroscope's range is tested above, against half the limit less
    // the largest bias.
    if gates.isClipped(acceleration, magnitude2: magnitude2) {
      // Clipped: this reading, the block it ends and the readings of the
      // next hold are not evidence of gravity. Nor is the trend of the
      // unclipped readings that began the shake, which the low-pass's rate
      // holds: it keeps what it knew of gravity, not where it was heading.
      if gates.holdAfterClip(at: time) { filteredAccelerationRate = .zero }
      block = CorrectionBlock()
    }
    // Every other reading stays in the mean, weak ones (free fall, the far
    // side of a shake) and strong ones (a violent push) alike: the low-pass
    // averages vectors, and leaving any out would bias the mean of a shake
    // toward its other half. Weak ones cannot give the first inclination.
    if gates.admits(time: time, magnitude2: magnitude2, hasInclination: hasInclination) {
      let inertial = g.rotate(acceleration)
      if hasInclination {
        let (weight, jump2) = gates.weight(of: inertial)
        block.add(inertial, rotation2: rate2, weight: weight, jump2: jump2, interval: dt)
      } else {
        startInclination(inertial)
      }
    }
    if block.count > 0 && block.duration >= blockInterval {
      applyCorrection(learnBias: hasGyroscope && !rest.isAtRest, time: time)
    }
    let orientation = inclinationCorrection * g
    return AttitudeEstimate(
      orientation: orientation, rotationRate: hasGyroscope ? rate : nil)
  }

  /// The inclination starts from the reading `inertial` (almost-inertial
  /// frame): the low-pass, the start's mean and the knock weight's course.
  mutating func startInclination(_ inertial: Vector3) {
    filteredAcceleration = inertial
    filteredAccelerationRate = .zero
    startSum = inertial
    startWeight = 1
    startDuration = 0
    blockInterval = 0
    gates.start(at: inertial)
    observer.rowFiltersNeedStart = true
    _ = correctInclination()
    hasInclination = true
    block = CorrectionBlock()
  }

  /// The frame jumped: the low-pass starts again from the readings after
  /// this one, as at the start, from the gravity it holds.
  mutating func restartLowPass() {
    block = CorrectionBlock()
    startSum = .zero
    startWeight = 0
    startDuration = 0
    blockInterval = 0
    observer.rowFiltersNeedStart = true
  }

  /// The rest window has lasted long enough: accepted as rest, the bias is
  /// updated and the window integrated afresh with it into `orientation`.
  @inline(never)
  mutating func closeRestWindow(orientation: inout Quaternion) {
    let window = rest.window
    let accepted = observer.acceptsRest(window)
    if accepted {
      updateRestGate()
      orientation = window.endOrientation(bias: observer.bias)
    }
    rest.close(accepted: accepted, orientation: orientation)
  }

  /// Low-passes the block's mean acceleration, corrects the inclination and
  /// learns the bias from the correction; starts a new block. Before the
  /// block is whole (during the start), only follows the start's mean.
  mutating func applyCorrection(learnBias: Bool, time: Double) {
    guard block.duration >= parameters.correctionInterval else { return followStart() }
    let inverseCount = 1 / Double(block.count)
    let dt = block.duration
    let mean = block.inertialSum / block.weightSum
    gates.follow(mean: mean, jump2: block.jump2 * inverseCount)
    // Without a gyroscope (or at rest) no bias turns the frame.
    let omega = law.frequency(
      mean: mean, gravity: filteredAcceleration, rotation2: block.rotation2 * inverseCount,
      biasDrift2: learnBias ? observer.drift2 : 0,
      biasVariance: observer.covariance.largestVariance, isAtRest: rest.isAtRest, interval: dt)
    let starting = startDuration < parameters.accelerometerTimeConstant
    if starting {
      startSum += block.inertialSum
      startWeight += block.weightSum
      startDuration += dt
      blockInterval =
        parameters.correctionInterval * min(1, startDuration / parameters.accelerometerTimeConstant)
      filteredAcceleration = startSum / startWeight
      filteredAccelerationRate = .zero
    } else if let w = gates.fade(at: time) {
      // A shake that clipped may go on below the range. Taken up at once,
      // at whatever phase its oscillation is in, its part-period mean would
      // enter the low-pass as a step; faded in, it averages out.
      let faded = filteredAcceleration + (mean - filteredAcceleration) * w
      filterAcceleration(faded, frequency: omega, interval: dt)
    } else {
      filterAcceleration(mean, frequency: omega, interval: dt)
    }
    block = CorrectionBlock()
    observer.wander(interval: dt)
    defer { updateRestGate() }
    guard let correction = correctInclinationInline() else { return }
    let toCard = (inclinationCorrection * gyroOrientation).conjugate
    observer.followRows(toCard, frequency: omega, interval: dt)
    // A rest measures the bias itself: what the innovations said before is old.
    if rest.isAtRest { observer.sustainedError = .zero }
    guard learnBias, !starting, dt > 0 else { return }
    observer.observeInMotion(
      correction: correction, trust: law.trust, recentRotation: law.recentRotation, interval: dt)
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

  /// ``TimeConstantLaw/cubeRoot(_:)``.
  static func cubeRoot(_ r: Double) -> Double { TimeConstantLaw.cubeRoot(r) }
}
