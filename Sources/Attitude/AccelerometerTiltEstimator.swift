/// Inclination from the accelerometer alone: gravity is the low-passed
/// direction of the specific force.
///
/// The low-pass adapts to the motion, twice:
///
/// - to the speed: its cutoff is ``FusionParameters/tiltMinimumCutoff`` plus
///   ``FusionParameters/tiltSpeedGain`` times the speed at which the
///   measured direction moves (low-passed over
///   ``FusionParameters/tiltSpeedTimeConstant``), as a One Euro filter's:
///   a slow tilt or a still card is averaged over a long time, a turn is
///   followed with little lag (the lag costs the time constant times the
///   speed). The speed counts only as far as the norm does not explain
///   the motion (``FusionParameters/tiltTranslationRatio``): a turn keeps
///   |a| = 1 g, a push moves the direction *and* the norm, and does not
///   open the filter;
/// - to acceleration: while readings stray from 1 g (a push, a shake, a
///   tap), the time constant grows by the factor `1 + d/scale²`, where `d`
///   is the mean square of the readings' distance from 1 g over
///   ``FusionParameters/tiltDisturbanceTimeConstant`` and the scale is
///   ``FusionParameters/tiltDisturbanceScale``, up to
///   ``FusionParameters/tiltMaximumTimeConstant``.
///
/// Yaw is unobservable, and the orientation makes none up: it is the
/// smallest rotation that takes the estimated up vector onto the world's
/// (a swing about a horizontal axis), a function of the tilt alone. The
/// same tilt always gives the same orientation, however the card got there.
public struct AccelerometerTiltEstimator: AttitudeEstimator, Sendable {
  public let parameters: FusionParameters

  /// The estimated world up vector (unit), card frame.
  public private(set) var up = Vector3(0, 0, 1)
  /// The current orientation, card → world.
  public private(set) var orientation = Quaternion.identity
  var hasInclination = false
  var timeStep: TimeStep
  let disturbanceFactor: SmoothingFactor
  let speedFactor: SmoothingFactor
  let inverseDisturbanceScale2: Double
  /// Mean square distance of the readings from 1 g, g².
  var disturbance = 0.0
  /// Low-passed speed of the measured up direction, rad/s.
  var speed = 0.0
  var lastMeasured = Vector3(0, 0, 1)
  /// The measured direction low-passed over the speed time constant.
  var slowDirection = Vector3(0, 0, 1)
  /// Low-passed `1 − measured·slowDirection` (≈ θ²/2 for a spread θ).
  var turn = 0.0
  /// Low-passed distance of the readings' magnitude from 1 g, g.
  var normDeviation = 0.0
  let inverseTranslationRatio: Double

  public init(parameters: FusionParameters = .init()) {
    self.parameters = parameters
    timeStep = TimeStep(maximumStep: parameters.maximumStep)
    disturbanceFactor = SmoothingFactor(timeConstant: parameters.tiltDisturbanceTimeConstant)
    speedFactor = SmoothingFactor(timeConstant: parameters.tiltSpeedTimeConstant)
    inverseDisturbanceScale2 =
      1 / (parameters.tiltDisturbanceScale * parameters.tiltDisturbanceScale)
    inverseTranslationRatio = 1 / parameters.tiltTranslationRatio
  }

  public mutating func reset() {
    up = Vector3(0, 0, 1)
    orientation = .identity
    hasInclination = false
    disturbance = 0
    speed = 0
    slowDirection = Vector3(0, 0, 1)
    turn = 0
    normDeviation = 0
    timeStep.reset()
  }

  public mutating func update(_ sample: MotionSample) -> AttitudeEstimate? {
    guard sample.isFinite else { return nil }
    let step = timeStep.advance(to: sample.time)
    let a = sample.acceleration
    let magnitude = a.length
    if case .interval(let dt) = step {
      // Unusable readings (a hard knock) count as disturbance too.
      let deviation = min(magnitude - 1, 10)
      disturbance += disturbanceFactor.alpha(for: dt) * (deviation * deviation - disturbance)
    }
    if parameters.usableAccelerationRange.contains(magnitude) {
      let measured = a / magnitude
      var newUp = measured
      if hasInclination, case .interval(let dt) = step {
        // The faster the direction moves, the shorter the time constant (a
        // One Euro filter on the up vector): slow tilts are averaged long,
        // turns followed closely.
        // Only readings near 1 g tell a turn: a knock's jump is not speed.
        // And only the part of the motion that the norm does not explain: a
        // turn keeps |a| = 1 g, a push that turns the direction by θ moves
        // the norm by θ²/2 (horizontal) or to first order (vertical). Over
        // the speed time constant, `turn` ≈ θ²/2 of the direction's spread
        // and `normDeviation` the norm's mean distance from 1 g; the speed
        // counts with the share turn²/(turn² + (normDeviation/ratio)²).
        let speedAlpha = speedFactor.alpha(for: dt)
        slowDirection += speedAlpha * (measured - slowDirection)
        turn += speedAlpha * (1 - measured.dot(slowDirection) - turn)
        normDeviation += speedAlpha * (abs(magnitude - 1) - normDeviation)
        if dt > 0 && abs(magnitude - 1) < parameters.tiltDisturbanceScale {
          let q = normDeviation * inverseTranslationRatio
          let t2 = turn * turn
          let share = q > 0 ? t2 / (t2 + q * q) : 1
          speed += speedAlpha * (share * (measured - lastMeasured).length / dt - speed)
        }
        let cutoff = parameters.tiltMinimumCutoff + parameters.tiltSpeedGain * speed
        let base = max(1 / (2 * .pi * cutoff), parameters.tiltTimeConstant)
        let tau = min(
          base * (1 + disturbance * inverseDisturbanceScale2),
          parameters.tiltMaximumTimeConstant)
        let alpha = SmoothingFactor.alpha(interval: dt, timeConstant: tau)
        newUp = (up + alpha * (measured - up)).normalized ?? measured
      } else {
        // A start or a gap: the norm test's means start from this reading.
        slowDirection = measured
      }
      lastMeasured = measured
      orientation = Quaternion(rotating: newUp, onto: Vector3(0, 0, 1))
      hasInclination = true
      up = newUp
    }
    return AttitudeEstimate(orientation: orientation, rotationRate: sample.rotationRate)
  }
}
