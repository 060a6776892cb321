import Foundation

/// Inclination from the accelerometer alone: gravity is the low-passed
/// direction of the specific force.
///
/// The low-pass's time constant τ follows the motion by the law that
/// minimises its error. A first-order low-pass following a direction that
/// turns at ω rad/s lags by about ωτ; linear acceleration of power σ² (g²)
/// across gravity and correlation time τc leaks through it as about
/// σ²·τc/τ (for τ ≫ τc). The mean square error ω²τ² + σ²τc/τ is smallest at
///
///     τ³ = σ²·τc / (2ω²),
///
/// clamped to ``FusionParameters/tiltTimeConstant``…
/// ``FusionParameters/tiltMaximumTimeConstant``. The three are measured
/// without a gyroscope:
///
/// - σ² ≈ 2d, where d is the mean square distance of the readings from 1 g
///   over ``FusionParameters/tiltDisturbanceTimeConstant``: the norm sees
///   the part of the linear acceleration along gravity, half the part
///   across it for a push in every direction;
/// - τc = √(P/R), where P and R are the mean squares, over the same time, of
///   that distance (low-passed over ``FusionParameters/tiltNormSmoothing``)
///   and of its rate: the time over which the push changes (a hand's push
///   0.05–0.4 s, a tap or a vibration 0.01–0.03 s, which leak little);
/// - ω is the speed at which the measured direction moves (low-passed over
///   ``FusionParameters/tiltSpeedTimeConstant``), counted only as far as the
///   norm does not explain the motion (``FusionParameters/tiltTranslationRatio``):
///   a turn keeps |a| = 1 g, a push moves the direction *and* the norm, and
///   is already in σ².
///
/// The statistics see a knock only once it has happened, and a knock's
/// τc is short: a reading whose distance from 1 g jumps out of its recent
/// course by s weighs `1/(1 + (s/scale)²)` in the low-pass
/// (``FusionParameters/tiltShockScale``).
///
/// A still card (ω ≈ 0) is averaged over the longest time constant, a turn
/// with steady readings (σ² ≈ noise) is followed within the shortest, and a
/// push between the two as far as it leaks.
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
  /// 1/τ of the disturbance means, the norm smoothing and the speed, 1/s.
  let disturbanceRate: Double
  let normSmoothingRate: Double
  let speedRate: Double
  /// Mean square distance of the readings from 1 g, g² (d).
  var disturbance = 0.0
  /// That distance low-passed over the norm smoothing time, g.
  var smoothDeviation = 0.0
  /// Mean square of `smoothDeviation`, g² (P).
  var deviationPower = 0.0
  /// Mean square of the rate of `smoothDeviation`, g²/s² (R).
  var deviationRatePower = 0.0
  /// The weight of the current reading in the low-pass (a knock's is small).
  var weight = 1.0
  let inverseShockScale: Double
  /// Low-passed speed of the measured up direction, its turning part, rad/s (ω).
  var speed = 0.0
  var lastMeasured = Vector3(0, 0, 1)
  /// The measured direction low-passed over the speed time constant.
  var slowDirection = Vector3(0, 0, 1)
  /// Low-passed `1 − measured·slowDirection` (≈ θ²/2 for a spread θ).
  var turn = 0.0
  /// Low-passed distance of the readings' magnitude from 1 g, g.
  var normDeviation = 0.0
  let inverseTranslationRatio: Double
  let shortest3: Double
  let longest3: Double

  public init(parameters: FusionParameters = .init()) {
    self.parameters = parameters
    timeStep = TimeStep(maximumStep: parameters.maximumStep)
    disturbanceRate = SmoothingFactor(timeConstant: parameters.tiltDisturbanceTimeConstant).rate
    normSmoothingRate = SmoothingFactor(timeConstant: parameters.tiltNormSmoothing).rate
    speedRate = SmoothingFactor(timeConstant: parameters.tiltSpeedTimeConstant).rate
    inverseTranslationRatio = 1 / parameters.tiltTranslationRatio
    inverseShockScale = 1 / parameters.tiltShockScale
    let shortest = parameters.tiltTimeConstant
    let longest = parameters.tiltMaximumTimeConstant
    shortest3 = shortest * shortest * shortest
    longest3 = longest * longest * longest
  }

  public mutating func reset() {
    up = Vector3(0, 0, 1)
    orientation = .identity
    hasInclination = false
    disturbance = 0
    smoothDeviation = 0
    deviationPower = 0
    deviationRatePower = 0
    weight = 1
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
    if case .interval(let dt) = step, dt > 0 {
      // Unusable readings (a hard knock) count as disturbance too.
      let deviation = min(magnitude - 1, 10)
      let alpha = Self.alpha(dt * disturbanceRate)
      disturbance += alpha * (deviation * deviation - disturbance)
      let previous = smoothDeviation
      // A knock stands out of the distance's recent course before the means
      // see it: its readings weigh 1/(1 + (jump/scale)²).
      let jump = (deviation - previous) * inverseShockScale
      weight = 1 / (1 + jump * jump)
      smoothDeviation += Self.alpha(dt * normSmoothingRate) * (deviation - smoothDeviation)
      let rate = (smoothDeviation - previous) / dt
      deviationPower += alpha * (smoothDeviation * smoothDeviation - deviationPower)
      deviationRatePower += alpha * (rate * rate - deviationRatePower)
    }
    if parameters.usableAccelerationRange.contains(magnitude) {
      let measured = a / magnitude
      var newUp = measured
      if hasInclination, case .interval(let dt) = step {
        // Only readings near 1 g tell a turn: a knock's jump is not speed.
        // And only the part of the motion that the norm does not explain: a
        // turn keeps |a| = 1 g, a push that turns the direction by θ moves
        // the norm by θ²/2 (horizontal) or to first order (vertical). Over
        // the speed time constant, `turn` ≈ θ²/2 of the direction's spread
        // and `normDeviation` the norm's mean distance from 1 g; the speed
        // counts with the share turn²/(turn² + (normDeviation/ratio)²).
        let speedAlpha = Self.alpha(dt * speedRate)
        slowDirection += speedAlpha * (measured - slowDirection)
        turn += speedAlpha * (1 - measured.dot(slowDirection) - turn)
        normDeviation += speedAlpha * (abs(magnitude - 1) - normDeviation)
        if dt > 0 && abs(magnitude - 1) < parameters.tiltDisturbanceScale {
          let q = normDeviation * inverseTranslationRatio
          let t2 = turn * turn
          let share = q > 0 ? t2 / (t2 + q * q) : 1
          speed += speedAlpha * (share * (measured - lastMeasured).length / dt - speed)
        }
        // τ³ = σ²·τc/(2ω²) with σ² = 2d and τc = √(P/R): d·√(P/R)/ω².
        let correlation =
          deviationRatePower > 0 ? (deviationPower / deviationRatePower).squareRoot() : 0
        let leak = disturbance * correlation
        let lag = speed * speed
        let tau: Double
        if leak >= longest3 * lag {
          tau = parameters.tiltMaximumTimeConstant  // also a still card: ω = 0
        } else if leak <= shortest3 * lag {
          tau = parameters.tiltTimeConstant
        } else {
          tau = Self.cubeRoot(leak / lag)
        }
        let alpha = weight * Self.alpha(dt / tau)
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

  /// 1 − e^−x, the step of a first-order low-pass over x = dt/τ. Every
  /// sample takes four, at x up to 0.2 (τ = 0.02 s at 100 Hz… 0.03 s at
  /// 286 Hz): the series to x⁷ (relative error below 1e-9 there) costs a
  /// fraction of `expm1`, which larger steps still take.
  @inline(__always)
  static func alpha(_ x: Double) -> Double {
    if x < 0.25 {
      return x
        * (1
          - x
          * (1.0 / 2
            - x
            * (1.0 / 6
              - x * (1.0 / 24 - x * (1.0 / 120 - x * (1.0 / 720 - x * (1.0 / 5040)))))))
    }
    return x.isFinite ? -expm1(-x) : 1
  }

  /// ∛r for r > 0 (here between the clamp's cubes, 2.7e-5…27), to a
  /// relative 1e-9: a first guess from the exponent (the bit pattern over
  /// three, plus two thirds of the bias, is within 6 %), then three Newton
  /// steps. Foundation's `cbrt` cost 90 instructions a sample, a fifth of
  /// the estimator.
  @inline(__always)
  static func cubeRoot(_ r: Double) -> Double {
    var y = Double(bitPattern: r.bitPattern / 3 + 0x2AA0_0000_0000_0000)
    y = (2 * y + r / (y * y)) * (1.0 / 3)
    y = (2 * y + r / (y * y)) * (1.0 / 3)
    y = (2 * y + r / (y * y)) * (1.0 / 3)
    return y
  }
}
