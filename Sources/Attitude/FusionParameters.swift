/// The tunable constants of the estimators.
///
/// Each value follows the sensor's physics (noise, bias drift) or VQF's
/// published defaults (Laidig & Seel 2023); docs/bench-attitude.md gives,
/// constant by constant, the reasoning and the figures behind it.
public struct FusionParameters: Hashable, Sendable {
  // MARK: Gyroscope + accelerometer

  /// Time constant of the accelerometer low-pass in the gyroscope's frame, where
  /// the motion's law starts (VQF's `tauAcc`). Seconds, > 0.
  public var accelerometerTimeConstant: Double = 3.0

  /// Time between accelerometer corrections, each on the mean of the readings
  /// since the last. Seconds, ≥ 0 (0: every sample).
  public var correctionInterval: Double = 0.02

  /// Shortest time constant with which inclination corrections move the bias
  /// in motion (the Kalman gain's bound). Seconds, > 0.
  public var motionBiasTimeConstant: Double = 3.0

  /// Bias error that one accelerometer time constant of motion reveals: the
  /// bias update's measurement noise in motion. Rad/s per axis, > 0 (0.2 °/s).
  public var motionBiasNoise: Double = 0.2 * .pi / 180

  /// Time constant of the accelerometer low-pass at rest, where it reads
  /// gravity alone. Seconds, > 0.
  public var restAccelerometerTimeConstant: Double = 1.0
  /// Disagreement with the inclination at which rest's faster low-pass takes
  /// half the weight, far above a still pad's noise. Radians (≈ g), ≥ 0 (0.5°).
  public var restDisagreementScale: Double = 0.5 * .pi / 180

  /// Largest gyroscope bias believed in, and the bias's prior standard
  /// deviation. Rad/s per axis, > 0 (2 °/s).
  public var maximumBias: Double = 2.0 * .pi / 180

  /// Rest (VQF's test): each gyroscope reading within this of its short-term
  /// mean, which is a bias within ``maximumBias``… Rad/s, > 0 (2 °/s).
  public var restGyroscopeThreshold: Double = 2.0 * .pi / 180
  /// …and the accelerometer within this of its short-term mean… g, > 0.
  public var restAccelerometerThreshold: Double = 0.05
  /// …for at least this long… Seconds, ≥ 0.
  public var restMinimumDuration: Double = 1.5
  /// …or this long before the first rest, since an unknown bias turns the
  /// estimate while it waits. Seconds, ≥ 0.
  public var initialRestMinimumDuration: Double = 0.5
  /// Time constant of rest detection's short-term means. Seconds, > 0.
  public var restFilterTimeConstant: Double = 0.5
  /// A rest window agrees with a bias value within this many standard
  /// deviations; one that agrees with none is a turn unless the accelerometer shows none. > 0.
  public var restBiasGate: Double = 4

  /// Standard deviation of a still gyroscope's one-second mean (noise and an
  /// unsteady hand). Rad/s per axis, > 0 (0.05 °/s).
  public var restGyroscopeNoise: Double = 0.05 * .pi / 180
  /// How fast the bias may wander (temperature drift); a faster one shows in
  /// the motion's corrections and raises the covariance. Rad/s per √s, ≥ 0.
  public var biasRandomWalk: Double = 0.01 * .pi / 180

  /// The gyroscope's scale and alignment error, which sets the motion's law
  /// τ³ = T·(p + p₀) / (2 s² (ω² + ω₀²)). Fraction, ≥ 0 (0 fixes τ).
  public var gyroscopeScaleError: Double = 0.0034
  /// Time constant of the law's means of `p` and `ω²`, over motion only: how a
  /// card is used changes slowly. Seconds, > 0.
  public var usageTimeConstant: Double = 30
  /// Rotation rate below which the drift is the bias's rather than the turn's
  /// (the law's ω₀). Rad/s, > 0.
  public var restingRotationRate: Double = 0.5
  /// Shortest accelerometer time constant in motion, 10 % below the start, for
  /// a fast shake that the law misjudges. Seconds, > 0.
  public var minimumAccelerometerTimeConstant: Double = 2.7
  /// Longest one, twice the start, so a gyroscope error is still corrected
  /// within seconds. Seconds, ≥ ``minimumAccelerometerTimeConstant``.
  public var maximumAccelerometerTimeConstant: Double = 6
  /// Time constant of the second-order low-pass that keeps the slow specific
  /// force across gravity: about a hand's back-and-forth. Seconds, > 0.
  public var translationFilterTimeConstant: Double = 1.0

  /// A reading that jumps `d` from the last correction block's mean weighs
  /// `1/(1 + d²/(scale² + j²))`, so a knock weighs little. g, > 0 (infinity: all alike).
  public var shockScale: Double = 2.0
  /// Not used: the knock weight's recent course is the last
  /// ``correctionInterval``'s mean. Kept so that code written against 0.1.0
  /// still builds.
  @available(
    *, deprecated, message: "no longer used: the knock weight's course is the last correction block"
  )
  public var shockTimeConstant: Double = 0.05

  // MARK: Accelerometer only

  // The time constant τ of the accelerometer-only low-pass follows the
  // motion by the law that minimises its error (see
  // ``AccelerometerTiltEstimator``): τ³ = σ²·τc/(2ω²), with σ² the linear
  // acceleration's power across gravity, τc its correlation time and ω the
  // rate at which the card turns. All three are measured; the constants
  // below only say over what time, and within what bounds.

  /// Shortest time constant, which keeps a motor's vibration and the sensor
  /// noise out. Seconds, > 0.
  public var tiltTimeConstant: Double = 0.03
  /// Longest time constant: a still card's, as VQF's accelerometer time
  /// constant. Seconds, ≥ ``tiltTimeConstant``.
  public var tiltMaximumTimeConstant: Double = 3.0
  /// Time constant of the means that measure the linear acceleration (σ² and
  /// τc): a few of a hand's pushes. Seconds, > 0.
  public var tiltDisturbanceTimeConstant: Double = 0.3
  /// Low-pass of the distance from 1 g before its rate is taken for τc, so the
  /// rate is not the sensor noise. Seconds, ≥ 0.
  public var tiltNormSmoothing: Double = 0.02
  /// Readings farther than this from 1 g carry no speed: a knock's jump is
  /// not a turn. g, > 0.
  public var tiltDisturbanceScale: Double = 0.5
  /// A reading whose distance from 1 g jumps by s from its course weighs
  /// `1/(1 + (s/scale)²)`, as the fusion's ``shockScale``. g, > 0.
  public var tiltShockScale: Double = 2
  /// Time constant of ω, the measured direction's speed, and of the norm
  /// test's means: a turn from rest shortens τ within it. Seconds, > 0.
  public var tiltSpeedTimeConstant: Double = 0.1
  /// How much more the norm must move than the direction for a motion to be a
  /// push, whose speed then does not count in ω. Ratio, > 0 (infinity: never).
  public var tiltTranslationRatio: Double = 4

  // MARK: Both

  /// A step longer than this is a gap in the data: the estimator restarts
  /// its inclination from the next reading. Seconds, > 0.
  public var maximumStep: Double = 0.5

  /// Magnitudes that carry a usable direction of gravity (not free fall, not a
  /// hard shock), for the accelerometer-only estimator and the fusion's start. g.
  public var usableAccelerationRange: ClosedRange<Double> = 0.3...8

  /// Largest magnitude an accelerometer axis reads (absinfo's maximum over its
  /// resolution); a reading at it is clipped. g, > 0; infinity when unknown.
  public var accelerometerRange: Double = .infinity
  /// Largest rate a gyroscope axis reads; a reading at it is saturated and is
  /// continued (``SaturatedTurn``). Rad/s, > 0; infinity when unknown.
  public var gyroscopeRange: Double = .infinity
  /// Longest span between the two readings before a cut from which the
  /// saturated turn's direction is taken. Seconds, > 0.
  public var saturationDirectionStep: Double = 0.05
  /// …and the part of that direction the unsaturated axes must hold for the
  /// continuation to go on. Fraction, 0…1.
  public var saturationVisibleShare: Double = 0.01
  /// Part of the range above which a reading goes through the continuation, so
  /// a flick is followed from well before the cut. Fraction, 0…1.
  public var saturationOnset: Double = 0.5
  /// How long after a clipped reading the accelerometer does not correct the
  /// inclination (then fades back in): one slow shake's period. Seconds, ≥ 0.
  public var clippedHoldTime: Double = 1.0

  public init() {}
}

extension FusionParameters {
  /// Fixes the fusion's accelerometer time constant at `seconds`, in motion
  /// too: the law that moves it with how the card is used is turned off
  /// (``gyroscopeScaleError`` 0). What a user who names a time constant
  /// (`--fusion-tau`) asks for.
  public mutating func fixAccelerometerTimeConstant(_ seconds: Double) {
    accelerometerTimeConstant = seconds
    gyroscopeScaleError = 0
  }
}
