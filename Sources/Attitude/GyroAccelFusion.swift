/// Gyroscope and accelerometer fusion in the spirit of VQF (Laidig & Seel,
/// Information Fusion 2023), written for this project.
///
/// - The bias-corrected gyroscope is integrated into `gyroOrientation`, the
///   rotation from the card into an *almost inertial* frame that only drifts
///   slowly with the remaining bias.
/// - The accelerometer, turned into that frame, goes through two equal
///   first-order low-passes whose delays add up to
///   ``FusionParameters/accelerometerTimeConstant``. In that frame gravity
///   stands still while the card turns, so the low-pass removes linear
///   acceleration (shaking, taps) without lagging the rotation; the second
///   stage rolls off short knocks twice as steeply as one stage would.
/// - While readings stray from 1 g (shaking, tapping), the time constant
///   grows (``FusionParameters/disturbanceScale``): the accelerometer is
///   trusted less for a while, sample after sample alike, so the trust does
///   not bias the average toward the calmer samples of a motion.
/// - The accelerometer part runs once per
///   ``FusionParameters/correctionInterval`` on the mean of the readings
///   since the last run (the gyroscope is integrated at every sample): a
///   5 s low-pass loses nothing to a 20 ms block, and the update costs half.
/// - `inclinationCorrection` turns the almost-inertial frame so that the
///   low-passed acceleration points up; the corrections it takes while the
///   card moves reveal the gyroscope bias perpendicular to gravity, which is
///   fed back with ``FusionParameters/motionBiasTimeConstant``.
/// - The gyroscope is always integrated. When the card rests (steady
///   gyroscope and accelerometer for ``FusionParameters/restMinimumDuration``,
///   with a mean rate consistent with the bias estimate), the bias becomes
///   the variance-weighted mean of its prior and the gyroscope's mean over
///   the rest, on all three axes, and the rest is integrated afresh with it:
///   a card at rest does not drift, not even in yaw. A steady turn that the
///   bias estimate cannot explain (``FusionParameters/restBiasGate``) is
///   not rest and keeps its rotation. See `GyroAccelFusion+Rest.swift`.
/// - Readings outside ``FusionParameters/usableAccelerationRange`` (free
///   fall, the peak of a hard shock) are left out of the low-pass.
///
/// Orientation = `inclinationCorrection · gyroOrientation`, card → world.
/// `update` never allocates.
public struct GyroAccelFusion: AttitudeEstimator, Sendable {
  public let parameters: FusionParameters

  /// The estimated gyroscope bias, rad/s, card frame.
  public internal(set) var bias: Vector3 = .zero
  /// True once the card has rested for the minimum duration.
  public internal(set) var isAtRest = false
  /// Variance of each axis of ``bias``, (rad/s)².
  public internal(set) var biasVariance: Double
  /// The current orientation, card → world.
  public private(set) var orientation = Quaternion.identity

  var gyroOrientation = Quaternion.identity
  var inclinationCorrection = Quaternion.identity
  /// The two stages of the low-passed specific force, g, almost-inertial frame.
  var prefilteredAcceleration = Vector3(0, 0, 1)
  var filteredAcceleration = Vector3(0, 0, 1)
  var hasInclination = false

  /// Accelerometer readings gathered since the last correction.
  struct CorrectionBlock: Sendable {
    /// Sum of the readings in the almost-inertial frame, g.
    var inertialSum = Vector3.zero
    /// Sum of the squared distances of their magnitudes from 1 g, g².
    var deviation2 = 0.0
    var count = 0
    /// Seconds of usable readings since the last correction.
    var duration = 0.0

    /// Adds a usable reading that came `dt` seconds after the previous
    /// sample. Only usable readings add time: a reading after a free fall
    /// does not get the weight of the fall.
    mutating func add(_ inertial: Vector3, deviation2 d: Double, interval dt: Double) {
      inertialSum += inertial
      deviation2 += d
      count += 1
      duration += dt
    }
  }
  var block = CorrectionBlock()

  var timeStep: TimeStep
  let accelerationFactor: SmoothingFactor
  let disturbanceFactor: SmoothingFactor
  let restFactor: SmoothingFactor
  let restBiasFactor: SmoothingFactor
  let inverseDisturbanceScale2: Double
  let motionBiasGain: Double
  let usableMagnitude2: ClosedRange<Double>

  /// Mean square of the readings' distance from 1 g, g², over
  /// ``FusionParameters/disturbanceTimeConstant``.
  var disturbance = 0.0
  /// How far the accelerometer is trusted now, 0…1 (1 when undisturbed).
  var trust = 1.0

  var restGyroMean = Vector3.zero
  var restAccelMean = Vector3(0, 0, 1)
  /// The current stretch of steady readings, if any.
  var restWindow: RestWindow?
  /// True once a rest has given the bias a measured value.
  var hasBiasEstimate = false
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
    accelerationFactor = SmoothingFactor(timeConstant: parameters.accelerometerTimeConstant / 2)
    disturbanceFactor = SmoothingFactor(timeConstant: parameters.disturbanceTimeConstant)
    restFactor = SmoothingFactor(timeConstant: parameters.restFilterTimeConstant)
    restBiasFactor = SmoothingFactor(timeConstant: parameters.restBiasTimeConstant)
    inverseDisturbanceScale2 = 1 / (parameters.disturbanceScale * parameters.disturbanceScale)
    motionBiasGain = 1 / parameters.motionBiasTimeConstant
    maximumBias2 = parameters.maximumBias * parameters.maximumBias
    biasVariance = maximumBias2
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
  }

  public mutating func reset() {
    orientation = .identity
    gyroOrientation = .identity
    inclinationCorrection = .identity
    hasInclination = false
    block = CorrectionBlock()
    timeStep.reset()
    disturbance = 0
    trust = 1
    restWindow = nil
    isAtRest = false
  }

  /// Inlined into the caller, which so hands the sample's fields over in
  /// registers: passed by address, the caller's fresh copy of the sample is
  /// read back in pieces that straddle its stores, and every step waits for
  /// the previous one to retire (a store-forwarding stall).
  @inlinable @inline(__always)
  public mutating func update(_ sample: MotionSample) -> AttitudeEstimate? {
    update(time: sample.time, acceleration: sample.acceleration, rotationRate: sample.rotationRate)
  }

  /// ``update(_:)`` with the sample's fields: seconds, g and rad/s (card frame).
  @usableFromInline
  mutating func update(time: Double, acceleration: Vector3, rotationRate: Vector3?)
    -> AttitudeEstimate?
  {
    let sample = MotionSample(time: time, acceleration: acceleration, rotationRate: rotationRate)
    guard sample.isFinite else { return nil }
    let gyro = rotationRate ?? .zero

    let dt: Double
    switch timeStep.advance(to: sample.time) {
    case .interval(let step):
      dt = step
    case .first, .gap:
      // Nothing to integrate across; take the inclination afresh.
      dt = 0
      hasInclination = false
      restGyroMean = gyro
      restAccelMean = acceleration
      restWindow = nil
      isAtRest = false
    }

    let rate = gyro - bias
    // The new orientation stays in a local for the whole step: read back from
    // `self` right after being stored, it would wait for the store to reach
    // the cache (the compiler's loads straddle its stores), every sample.
    var g = gyroOrientation
    if dt > 0 { g = (g * Quaternion(rotationRate: rate, interval: dt)).renormalized }
    if sample.rotationRate != nil {
      detectRest(gyro: gyro, acceleration: acceleration, dt: dt, orientation: &g)
    }
    gyroOrientation = g

    let magnitude2 = acceleration.lengthSquared
    if usableMagnitude2.contains(magnitude2) {
      let inertial = g.rotate(acceleration)
      if hasInclination {
        let deviation = magnitude2.squareRoot() - 1
        block.add(inertial, deviation2: deviation * deviation, interval: dt)
      } else {
        prefilteredAcceleration = inertial
        filteredAcceleration = inertial
        _ = correctInclination()
        hasInclination = true
        block = CorrectionBlock()
      }
    }
    if block.count > 0 && block.duration >= parameters.correctionInterval {
      applyCorrection(learnBias: sample.rotationRate != nil && !isAtRest)
    }
    orientation = inclinationCorrection * g
    return AttitudeEstimate(
      orientation: orientation, rotationRate: sample.rotationRate == nil ? nil : rate)
  }

  /// Low-passes the block's mean acceleration, corrects the inclination and
  /// learns the bias from the correction; starts a new block.
  mutating func applyCorrection(learnBias: Bool) {
    let inverseCount = 1 / Double(block.count)
    let dt = block.duration
    disturbance +=
      disturbanceFactor.alpha(for: dt) * (block.deviation2 * inverseCount - disturbance)
    trust = 1 / (1 + disturbance * inverseDisturbanceScale2)
    let alpha = accelerationFactor.alpha(for: dt) * trust
    prefilteredAcceleration += alpha * (block.inertialSum * inverseCount - prefilteredAcceleration)
    filteredAcceleration += alpha * (prefilteredAcceleration - filteredAcceleration)
    block = CorrectionBlock()
    guard let correction = correctInclination(), learnBias else { return }
    // A bias error e turns the estimate by R·e·dt (R: card → world); the
    // correction undoes its horizontal part, so −Rᵀ·correction/dt observes e.
    let toCard = (inclinationCorrection * gyroOrientation).conjugate
    bias -= toCard.rotate(correction) * (trust * motionBiasGain)
    clampBias()
  }

  /// Turns the almost-inertial frame so the filtered acceleration points up.
  /// Returns the correction's rotation vector (radians, world frame,
  /// horizontal), or nil when there is no direction to correct to.
  mutating func correctInclination() -> Vector3? {
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

  mutating func clampBias() {
    let m = parameters.maximumBias
    bias = Vector3(min(max(bias.x, -m), m), min(max(bias.y, -m), m), min(max(bias.z, -m), m))
  }
}
