/// Gyroscope and accelerometer fusion in the spirit of VQF (Laidig & Seel,
/// Information Fusion 2023), written for this project.
///
/// - The bias-corrected gyroscope is integrated into `gyroOrientation`, the
///   rotation from the card into an *almost inertial* frame that only drifts
///   slowly with the remaining bias.
/// - The accelerometer, turned into that frame, is low-passed with the time
///   constant ``FusionParameters/accelerometerTimeConstant``. In that frame
///   gravity stands still while the card turns, so the low-pass removes
///   linear acceleration (shaking, taps) without lagging the rotation.
/// - `inclinationCorrection` turns the almost-inertial frame so that the
///   low-passed acceleration points up; the corrections it takes while the
///   card moves reveal the gyroscope bias perpendicular to gravity, which is
///   fed back with ``FusionParameters/motionBiasTimeConstant``.
/// - When the card rests (steady gyroscope and accelerometer for
///   ``FusionParameters/restMinimumDuration``), the bias follows the
///   gyroscope's mean on all three axes, the gyroscope is not integrated,
///   and what it integrated since the card became still is taken back: a
///   card at rest does not drift, not even in yaw.
/// - Readings outside ``FusionParameters/usableAccelerationRange`` (free fall,
///   hard shocks) are left out of the low-pass.
///
/// Orientation = `inclinationCorrection · gyroOrientation`, card → world.
public struct GyroAccelFusion: AttitudeEstimator, Sendable {
  public let parameters: FusionParameters

  /// The estimated gyroscope bias, rad/s, card frame.
  public private(set) var bias: Vector3 = .zero
  /// True once the card has rested for the minimum duration.
  public private(set) var isAtRest = false

  var gyroOrientation = Quaternion.identity
  var inclinationCorrection = Quaternion.identity
  /// Low-passed specific force in the almost-inertial frame, g.
  var filteredAcceleration = Vector3(0, 0, 1)
  /// First stage of the two-stage low-pass, g, almost-inertial frame.
  var prefilteredAcceleration = Vector3(0, 0, 1)
  var hasInclination = false

  var timeStep: TimeStep
  let accelerationFactor: SmoothingFactor
  let restFactor: SmoothingFactor
  let restBiasFactor: SmoothingFactor
  var restGyroMean = Vector3.zero
  var restAccelMean = Vector3(0, 0, 1)
  var restDuration = 0.0
  /// The integrated gyroscope orientation when the card last became still.
  var gyroOrientationAtStill = Quaternion.identity

  let inverseDisturbanceScale2: Double
  let disturbanceFactor: SmoothingFactor
  /// Mean square of the readings' distance from 1 g over the last second or so, g².
  var disturbance = 0.0
  /// How far the accelerometer is trusted now, 0…1 (1 when undisturbed).
  var trust = 1.0

  public init(parameters: FusionParameters = .init()) {
    self.parameters = parameters
    inverseDisturbanceScale2 =
      1 / (parameters.disturbanceScale * parameters.disturbanceScale)
    disturbanceFactor = SmoothingFactor(timeConstant: parameters.disturbanceTimeConstant)
    timeStep = TimeStep(maximumStep: parameters.maximumStep)
    // Two equal first-order stages whose delays add up to the time constant.
    accelerationFactor = SmoothingFactor(timeConstant: parameters.accelerometerTimeConstant / 2)
    restFactor = SmoothingFactor(timeConstant: parameters.restFilterTimeConstant)
    restBiasFactor = SmoothingFactor(timeConstant: parameters.restBiasTimeConstant)
  }

  /// The current orientation, card → world.
  public var orientation: Quaternion { inclinationCorrection * gyroOrientation }

  public mutating func reset() {
    gyroOrientation = .identity
    inclinationCorrection = .identity
    filteredAcceleration = Vector3(0, 0, 1)
    hasInclination = false
    timeStep.reset()
    restDuration = 0
    isAtRest = false
  }

  public mutating func update(_ sample: MotionSample) -> AttitudeEstimate? {
    guard sample.isFinite else { return nil }
    let acceleration = sample.acceleration
    let gyro = sample.rotationRate ?? .zero
    let magnitude2 = acceleration.lengthSquared
    let range = parameters.usableAccelerationRange
    let usable =
      magnitude2 >= range.lowerBound * range.lowerBound
      && magnitude2 <= range.upperBound * range.upperBound

    let dt: Double
    switch timeStep.advance(to: sample.time) {
    case .first:
      restGyroMean = gyro
      restAccelMean = acceleration
      dt = 0
    case .gap:
      hasInclination = false
      restDuration = 0
      isAtRest = false
      restGyroMean = gyro
      restAccelMean = acceleration
      dt = 0
    case .interval(let step):
      dt = step
    }

    if sample.rotationRate != nil { detectRest(gyro: gyro, acceleration: acceleration, dt: dt) }

    let rate = gyro - bias
    // At rest the card does not turn: integrating would only add the bias.
    if dt > 0 && !isAtRest {
      gyroOrientation =
        (gyroOrientation * Quaternion(rotationRate: rate, interval: dt))
        .normalized
    }

    if usable {
      let inertial = gyroOrientation.rotate(acceleration)
      if hasInclination {
        let deviation = (magnitude2.squareRoot() - 1)
        disturbance += disturbanceFactor.alpha(for: dt) * (deviation * deviation - disturbance)
        trust = 1 / (1 + disturbance * inverseDisturbanceScale2)
        let alpha = accelerationFactor.alpha(for: dt) * trust
        prefilteredAcceleration += alpha * (inertial - prefilteredAcceleration)
        filteredAcceleration += alpha * (prefilteredAcceleration - filteredAcceleration)
      } else {
        prefilteredAcceleration = inertial
        filteredAcceleration = inertial
      }
      correctInclination(dt: dt, moving: sample.rotationRate != nil && !isAtRest)
    }
    return AttitudeEstimate(
      orientation: orientation, rotationRate: sample.rotationRate == nil ? nil : rate)
  }

  /// Turns the almost-inertial frame so the filtered acceleration points up,
  /// and learns from the turn the bias that caused it.
  mutating func correctInclination(dt: Double, moving: Bool) {
    let world = inclinationCorrection.rotate(filteredAcceleration)
    guard let up = world.normalized else { return }
    let correction = Quaternion(rotating: up, onto: Vector3(0, 0, 1))
    inclinationCorrection = (correction * inclinationCorrection).normalized
    guard hasInclination else {
      hasInclination = true
      return
    }
    guard moving, dt > 0 else { return }
    // A bias error e turns the estimate by R·e·dt each step (R: card → world);
    // the correction undoes its horizontal part, so −Rᵀ·correction/dt observes e.
    let correctionVector = Vector3(2 * correction.x, 2 * correction.y, 0)
    let inCard = orientation.conjugate.rotate(correctionVector)
    bias -= inCard * (trust / parameters.motionBiasTimeConstant)
    clampBias()
  }

  mutating func detectRest(gyro: Vector3, acceleration: Vector3, dt: Double) {
    let alpha = restFactor.alpha(for: dt)
    restGyroMean += alpha * (gyro - restGyroMean)
    restAccelMean += alpha * (acceleration - restAccelMean)
    let gyroLimit = parameters.restGyroscopeThreshold
    let accelLimit = parameters.restAccelerometerThreshold
    let still =
      (gyro - restGyroMean).lengthSquared < gyroLimit * gyroLimit
      && restGyroMean.lengthSquared < gyroLimit * gyroLimit
      && (acceleration - restAccelMean).lengthSquared < accelLimit * accelLimit
    if still {
      if restDuration == 0 { gyroOrientationAtStill = gyroOrientation }
      restDuration += dt
    } else {
      restDuration = 0
    }
    let wasAtRest = isAtRest
    isAtRest = restDuration >= parameters.restMinimumDuration
    if isAtRest && !wasAtRest {
      // The card has not turned since it became still: what the gyroscope
      // integrated meanwhile was bias. Take it back.
      gyroOrientation = gyroOrientationAtStill
    }
    if isAtRest {
      let beta = restBiasFactor.alpha(for: dt)
      bias += beta * (restGyroMean - bias)
      clampBias()
    }
  }

  mutating func clampBias() {
    let m = parameters.maximumBias
    bias = Vector3(min(max(bias.x, -m), m), min(max(bias.y, -m), m), min(max(bias.z, -m), m))
  }
}
