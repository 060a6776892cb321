import Foundation

/// The accelerometer low-pass's natural frequency, block by block: in motion
/// the law τ³ = T·(p + p₀)/(2(s²(ω² + ω₀²) + d²)) over how the card is used
/// (``FusionParameters/gyroscopeScaleError``), at rest a faster one as far as
/// the accelerometer disagrees with the estimate beyond its noise.
struct TimeConstantLaw: Sendable {
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
  /// The means over motion (``FusionParameters/usageTimeConstant``) of the
  /// square of ``slowTranslation``, g², and of ``recentRotation``: how the
  /// card is used.
  var usageTranslation = 0.0
  var usageRotation = 0.0

  /// Natural frequencies of the accelerometer low-pass in motion and at
  /// rest, rad/s.
  let accelerationFrequency: Double
  let restAccelerationFrequency: Double
  /// The natural frequency of ``slowTranslation``'s low-pass, rad/s.
  let translationFrequency: Double
  /// 1 / the low-pass's memory, 1/s.
  let memoryRate: Double
  /// `T/(2s²)` of the time constant's law, and its `p₀` and `ω₀²`.
  let usageGain: Double
  let translationFloor: Double
  let restingRotation2: Double
  /// 1/s² of the time constant's law, s²: a drift rate squared over it is
  /// the squared rotation rate whose scale error drifts as fast.
  let inverseScaleError2: Double
  /// The cubes of the time constant's bounds, and 1/τ₀³.
  let minimumTimeConstant3: Double
  let maximumTimeConstant3: Double
  let inverseTimeConstant3: Double
  /// τ₀², s².
  let timeConstant2: Double
  /// 1 / ``FusionParameters/usageTimeConstant``, 1/s.
  let usageRate: Double
  let restDisagreementScale2: Double

  init(_ parameters: FusionParameters) {
    // A Butterworth low-pass whose delay is the time constant τ: ω = √2/τ.
    accelerationFrequency = 2.0.squareRoot() / parameters.accelerometerTimeConstant
    restAccelerationFrequency =
      2.0.squareRoot()
      / min(parameters.restAccelerometerTimeConstant, parameters.accelerometerTimeConstant)
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
    memoryRate = 1 / (2 * tau0)
    restDisagreementScale2 = parameters.restDisagreementScale * parameters.restDisagreementScale
  }

  mutating func reset() {
    trust = 1
    slowTranslation = ButterworthState(.zero)
    usageTranslation = 0
    usageRotation = 0
    recentRotation = 0
  }

  /// Takes a correction block (its mean `mean`, the low-passed `gravity`
  /// before it, the mean square rotation rate `rotation2`, `dt` seconds)
  /// and returns the accelerometer low-pass's natural frequency for it,
  /// rad/s. `biasDrift2` is the drift the bias error leaves (0 without a
  /// gyroscope or at rest), `biasVariance` the least known axis's variance.
  @inline(__always)
  mutating func frequency(
    mean: Vector3, gravity: Vector3, rotation2: Double, biasDrift2: Double,
    biasVariance: Double, isAtRest: Bool, interval dt: Double
  ) -> Double {
    // Slow linear acceleration: the mean's part across the low-passed
    // gravity, low-passed over about a second (a fast shake averages out
    // in the accelerometer low-pass anyway; a slow push does not).
    let across = mean - gravity * (mean.dot(gravity) / max(gravity.lengthSquared, 1e-12))
    slowTranslation.step(across, frequency: translationFrequency, interval: dt)
    // The drift the low-pass holds is the one of its memory (≈ 2τ): the
    // rotation over that, rests included (a turn that has just begun has
    // drifted little yet). Backward Euler (x/(1 + x)): dt/τ is a few
    // thousandths.
    let m = dt * memoryRate
    recentRotation += m / (1 + m) * (rotation2 - recentRotation)
    let stretch = self.stretch(
      translation2: slowTranslation.value.lengthSquared, rotation2: recentRotation,
      biasDrift2: biasDrift2, biasVariance: biasVariance, isAtRest: isAtRest, interval: dt)
    trust = 1 / stretch
    // At rest the accelerometer reads gravity alone: it may correct fast,
    // but only as far as it disagrees with the estimate beyond its noise
    // (the disagreement is the slow part across gravity, as above). A wrong
    // inclination converges with the rest time constant; a right one keeps
    // the motion's, which lets less of the accelerometer's noise through.
    if isAtRest {
      let e2 = slowTranslation.value.lengthSquared
      return accelerationFrequency + (restAccelerationFrequency - accelerationFrequency) * e2
        / (e2 + restDisagreementScale2)
    }
    return accelerationFrequency * trust
  }

  /// The accelerometer time constant in motion over
  /// ``FusionParameters/accelerometerTimeConstant``: the cube root of
  /// `T·(p + p₀)/(2(s²(ω² + ω₀²) + d²))` over τ₀³, within the bounds (see
  /// ``FusionParameters/gyroscopeScaleError``). `d²` is the bias
  /// observer's drift: a bias not known yet drifts the almost-inertial
  /// frame as a scale error does, and the low-pass lags either drift by τ
  /// (docs/bench-attitude.md, `usageStretch`). Updates the means of motion.
  @inline(__always)
  mutating func stretch(
    translation2 p: Double, rotation2 w2: Double, biasDrift2 d2: Double, biasVariance: Double,
    isAtRest: Bool, interval dt: Double
  ) -> Double {
    guard usageGain > 0 else { return 1 }
    if !isAtRest {
      // A bias that is not known yet turns the almost-inertial frame, and
      // the low-pass lags that drift by about the bias error times τ: that
      // much of the disagreement is the gyroscope's, not a push (counted as
      // a push, it lengthened τ and slowed the bias's own correction: a bias
      // 2.6 °/s off was 0.53 °/s off after 40 s of turning, 0.06 °/s now).
      let push = max(0, p - biasVariance * timeConstant2)
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
}
