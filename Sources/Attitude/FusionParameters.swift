/// The tunable constants of the estimators.
///
/// The fusion's rest and bias constants follow the sensor's physics (noise,
/// bias drift) and VQF's published defaults (Laidig & Seel 2023): the
/// accelerometer time constant of 3 s (where the motion's law starts), the
/// rest thresholds. docs/bench-attitude.md gives the figures on the
/// twelve shared BROAD trials and the leave-one-kind-out cross-validation
/// (parameters chosen without the kind of motion they are scored on).
public struct FusionParameters: Hashable, Sendable {
  // MARK: Gyroscope + accelerometer

  /// Time constant, in seconds, of the low-pass that the accelerometer goes
  /// through in the gyroscope's almost-inertial frame: how long the
  /// accelerometer takes to correct the inclination (VQF's `tauAcc`). In
  /// motion it is where the time constant starts, and moves from with how
  /// the card is used (``gyroscopeScaleError``); at rest, the steady one.
  public var accelerometerTimeConstant: Double = 3.0

  /// Seconds between accelerometer corrections, each on the mean of the
  /// readings since the last one; 0 corrects at every sample.
  public var correctionInterval: Double = 0.02

  /// The shortest time constant, in seconds, with which inclination
  /// corrections move the gyroscope bias estimate while the card moves
  /// (the Kalman gain's bound; the gain is smaller once the bias is known).
  public var motionBiasTimeConstant: Double = 3.0

  /// Standard deviation, rad/s per axis, of the bias error that one
  /// ``accelerometerTimeConstant`` of motion reveals through the inclination
  /// corrections (what hand motion leaves in the low-passed accelerometer):
  /// the measurement noise of the bias's Kalman update in motion. 0.2 °/s,
  /// between VQF's 0.1 °/s and the 0.45 °/s this fusion had while a slow
  /// push could leak into the corrections at a fixed 3 s; the time
  /// constant that lengthens for pushes (``gyroscopeScaleError``) now keeps
  /// them out, and each correction's weight follows the time constant.
  public var motionBiasNoise: Double = 0.2 * .pi / 180

  /// Time constant, in seconds, of the accelerometer low-pass while the
  /// card rests (then it reads gravity alone): after a disturbance the
  /// inclination converges within a few of these once the card is still.
  public var restAccelerometerTimeConstant: Double = 1.0
  /// At rest, the low-pass runs at ``restAccelerometerTimeConstant`` only
  /// while the accelerometer disagrees with the estimated inclination: its
  /// frequency goes from the motion's to the rest's as `e²/(e² + scale²)`,
  /// where `e` is the disagreement (the readings' part across the
  /// estimated gravity, low-passed over
  /// ``translationFilterTimeConstant``), in g (≈ radians). 0.5°: fifty
  /// times what a still pad's accelerometer noise leaves in that one-second
  /// mean (≈0.01°), so noise keeps the steady 3 s low-pass (0.037° of
  /// jitter on an upright DualSense, against 0.085° with the fast one
  /// throughout), while a disturbance's error of a few degrees converges
  /// with the fast one (half of it at 0.5° from the truth, the recovery
  /// bound of the tests). 0 corrects at rest with the fast one throughout.
  public var restDisagreementScale: Double = 0.5 * .pi / 180

  /// Largest gyroscope bias the estimator believes in, rad/s per axis; also
  /// the standard deviation of the bias before anything is known of it.
  public var maximumBias: Double = 2.0 * .pi / 180

  /// Rest (VQF's test): each gyroscope reading stays within this many rad/s
  /// of the short-term mean, whose every axis is a bias the estimator can
  /// hold (within ``maximumBias``)…
  public var restGyroscopeThreshold: Double = 2.0 * .pi / 180
  /// …and the accelerometer within this many g of its short-term mean…
  public var restAccelerometerThreshold: Double = 0.05
  /// …for at least this many seconds…
  public var restMinimumDuration: Double = 1.5
  /// …or this many before the first rest, while the bias is unknown: every
  /// second spent waiting lets the bias turn the estimate.
  public var initialRestMinimumDuration: Double = 0.5
  /// Time constant, in seconds, of the short-term means of rest detection.
  public var restFilterTimeConstant: Double = 0.5
  /// A rest window's mean rate agrees with a bias value (the estimate, or
  /// the one the last rest left) when it is within this many standard
  /// deviations of it (of the value and of the mean together). A window that
  /// agrees with neither is still rest if the accelerometer shows the card
  /// did not turn; otherwise (a steady turn about the vertical) it is
  /// integrated as a turn and does not move the bias.
  public var restBiasGate: Double = 4

  /// Standard deviation of a still gyroscope's one-second mean, rad/s per
  /// axis (noise, and a hand that is never quite still); a mean over T
  /// seconds is trusted as 1/√T of it.
  public var restGyroscopeNoise: Double = 0.05 * .pi / 180
  /// How fast the bias may wander, rad/s per √s: its variance grows by the
  /// square of this each second (temperature drift), up to
  /// ``maximumBias``². Small values keep a slow turn about the vertical from
  /// passing for rest for longer; large ones let the bias follow a warming
  /// sensor sooner, and let motion move it faster. A bias that moves faster
  /// than this allows (a ramp of degrees per second in minutes) shows in
  /// the motion's corrections, whose mean over ``usageTimeConstant`` then
  /// no longer averages out: the covariance is raised to what that mean
  /// shows (the fusion's covariance matching).
  public var biasRandomWalk: Double = 0.01 * .pi / 180

  /// In motion, the accelerometer time constant follows how the card is
  /// used. The low-pass's error has two parts: the gyroscope's drift,
  /// which grows with τ, and the slow linear acceleration that leaks
  /// through, which shrinks with it. With a drift of `s·ω` (a scale and
  /// alignment error `s` of the rotation rate ω) the error
  /// `(s·ω·τ)² + p·T/τ` is smallest at
  ///
  ///     τ³ = T·(p + p₀) / (2 s² (ω² + ω₀²))
  ///
  /// (a bias not known yet drifts the frame too: its expected square drift
  /// rate, from the bias's covariance, adds to `s²(ω² + ω₀²)`, so τ stays
  /// short until the bias is learnt),
  /// where `p` is the mean square (over ``usageTimeConstant`` of motion) of
  /// the slow part of the specific force across gravity (the 20 ms means'
  /// part across the low-passed gravity, through a second-order low-pass
  /// with time constant `T` = ``translationFilterTimeConstant``), `ω²` the
  /// mean square rotation rate, `ω₀` = ``restingRotationRate``, and `p₀`
  /// the value for which a card that has not moved yet gets
  /// ``accelerometerTimeConstant``. A turning card gets a shorter τ (its
  /// gyroscope's errors grow with the turn), a pushed one a longer τ, within
  /// ``minimumAccelerometerTimeConstant``…``maximumAccelerometerTimeConstant``.
  ///
  /// 0.34 %: a calibrated IMU's scale and cross-axis error; with it the
  /// law's constant `(T/2s²)^⅓` is 35 s per (g/(rad/s))^⅔. Chosen on the
  /// twelve BROAD trials (docs/bench-attitude.md, fourth pass): the
  /// cross-validated figures there say what to expect elsewhere. 0 keeps
  /// τ at ``accelerometerTimeConstant``.
  public var gyroscopeScaleError: Double = 0.0034
  /// Time constant, in seconds, of the means of `p` and `ω²`, taken over
  /// motion only (rest leaves them alone). How a card is used changes
  /// slowly, and a push's quiet moments (a hand turning back) must not
  /// shorten τ: with means over 6 s instead, τ shortened between pushes
  /// and the slow translations lost 20–50 %. Also the span of the mean of
  /// the bias's innovations in motion (see ``biasRandomWalk``): a bias that
  /// ramps stays off for minutes, a car's corner or a fast turn's scale
  /// error for seconds.
  public var usageTimeConstant: Double = 30
  /// The rotation rate, rad/s, below which the drift is the bias's rather
  /// than the turn's (s·ω₀ ≈ 0.1 °/s, a bias known to about that): a card
  /// that barely turns keeps τ near ``accelerometerTimeConstant``.
  public var restingRotationRate: Double = 0.5
  /// The shortest accelerometer time constant in motion, seconds: 2.7 s,
  /// 10 % below the 3 s start. The law misjudges a fast shake with some
  /// turning (BROAD 15: 1.2 g at ~2 Hz), whose leak it underestimates: at
  /// 2.5 s that trial is 1 % worse than VQF's fixed 3 s, while the turning
  /// trials gain only a few percent more. Chosen looking at the trials.
  public var minimumAccelerometerTimeConstant: Double = 2.7
  /// The longest, seconds: 6 s, twice the start, so that a gyroscope error
  /// is still corrected within seconds.
  public var maximumAccelerometerTimeConstant: Double = 6
  /// Time constant, in seconds, of the low-pass that keeps the slow part of
  /// the specific force across gravity: about a hand's back-and-forth
  /// period, so a push counts and a shake averages out. Second order, so a
  /// 2 Hz shake is rolled off 160 times more than by a first-order one.
  public var translationFilterTimeConstant: Double = 1.0

  /// Within the low-pass, a reading that jumps by `d` g from the readings'
  /// recent course (a vector: the mean of the last ``correctionInterval``)
  /// weighs `1/(1 + d²/(scale² + j²))`, `j²` the mean square of the jumps
  /// in that interval:
  /// a knock (a spike of a few milliseconds out of a calm course) weighs
  /// little. A push follows its course and keeps its weight; a shake or a
  /// violent translation jumps all the time, and its readings weigh alike.
  /// The jump is a vector so that a shake's push and pull weigh alike and
  /// its mean stays zero: weighed by the jump of the magnitude, larger on
  /// the push that adds to gravity than on the pull, a shake's mean leaned
  /// (simulated shake seed 3, 15–40 s: 0.356° against 0.317° with all
  /// readings alike; now 0.317°). Weighing readings by their distance from
  /// 1 g itself (before that) biased the mean of a fast translation (BROAD
  /// 15: 1.013 × VQF). 2 g: a reading in a hard knock (5 g) at rest weighs
  /// 0.14, the jitter of a shaking hand (a few tenths of a g from one
  /// sample to the next) about 1. In g; infinity weighs all readings alike.
  ///
  /// Kept on: it is the one weight that depends on the reading, and so the
  /// one nonlinearity left in the low-pass; measured off (issue 19) it
  /// changes the simulated 4–10 g breakaway little but costs the knocks
  /// (simulated knocks at rest, seeds 1–3: 0.45/0.41/0.41° RMSE off,
  /// 0.32/0.24/0.29° on; VQF 0.61/0.55/0.59°) and BROAD 24, tapping
  /// (0.608° off, above VQF's 0.607°; 0.572° on).
  public var shockScale: Double = 2.0
  /// No longer used: the knock weight's recent course is the last
  /// ``correctionInterval``'s mean (issue 19, fourth session). Kept so that
  /// code written against 0.1.0 still builds.
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

  /// The shortest time constant, in seconds, however fast the card turns
  /// and however still its readings: 0.03 s. It keeps a phone motor's
  /// vibration and the sensor noise out (a 45 °/s turn lags ωτ = 1.35°
  /// there); 0.01 s lets BROAD 26's vibration through (0.72 × the low-pass
  /// against 0.55 ×).
  public var tiltTimeConstant: Double = 0.03
  /// The longest, seconds: 3 s, a still card's average (also VQF's
  /// accelerometer time constant). A push with no turn asks for more; a
  /// card that turns within seconds is followed long before (1 s moves no
  /// BROAD trial by more than 0.1 %).
  public var tiltMaximumTimeConstant: Double = 3.0
  /// Time constant, in seconds, of the means that measure the linear
  /// acceleration: d, the mean square distance of the readings from 1 g
  /// (the part along gravity: σ² ≈ 2d for a push in every direction), and
  /// the mean squares of that distance and of its rate, whose ratio gives
  /// τc. 0.3 s: a few of a hand's pushes, so the law follows a push that
  /// starts and ends; 1 s costs the fast trials (15: 0.998 × the low-pass
  /// against 0.984 ×, 21: 1.002 × against 0.996 ×).
  public var tiltDisturbanceTimeConstant: Double = 0.3
  /// The distance from 1 g is low-passed with this time constant, seconds,
  /// before its rate is taken for τc: 0.02 s. Without it the rate is the
  /// sensor noise (0.005 g a sample at 286 Hz is 2 g/s); a hand's push
  /// (τc 0.05–0.4 s on BROAD) is not slowed. 0.01 and 0.05 s move the
  /// trials by up to 3 % (0.05: 15 0.952 ×, 21 1.013 ×).
  public var tiltNormSmoothing: Double = 0.02
  /// Readings farther than this from 1 g, in g, carry no speed: a knock's
  /// jump is not a turn. 0.5 g.
  public var tiltDisturbanceScale: Double = 0.5
  /// A reading whose distance from 1 g jumps by s out of its recent course
  /// (low-passed over ``tiltNormSmoothing``) weighs `1/(1 + (s/scale)²)` in
  /// the low-pass; in g. 2 g, the fusion's ``shockScale``: a 5 g knock of
  /// 10 ms weighs a fifth, and the worst error of a turn with such knocks
  /// every second goes from 5.2° to 1.9°, while a hand's push, which
  /// follows its course, keeps its weight (no BROAD trial moves by more
  /// than 0.4 %).
  public var tiltShockScale: Double = 2
  /// ω is the speed at which the measured direction moves, low-passed with
  /// this time constant, seconds: 0.1 s, so a turn that starts from rest
  /// (where the norm test leaves no speed) shortens τ within a tenth of a
  /// second. Also the time constant of the norm test's means.
  public var tiltSpeedTimeConstant: Double = 0.1
  /// How much the norm must move, against the direction, for a motion to
  /// count as a push rather than a turn (the push is then in σ², not in
  /// ω). Over ``tiltSpeedTimeConstant``, `t` is the mean of `1 − cos θ`
  /// (≈ θ²/2) between the reading's direction and its recent mean, `n` the
  /// mean distance of the readings from 1 g; the speed counts with the
  /// share `t²/(t² + (n/ratio)²)`. A turn keeps the norm; a horizontal push
  /// that turns the direction by θ raises it by θ²/2 (n ≈ t), a vertical
  /// one moves it to first order. 4: on the twelve BROAD trials the
  /// rotations show n at 0.4–1.0 × t, the combined ones 1.5–1.8 ×, the
  /// translations 2.6–14 ×; at n = 1.8 t a turn keeps 83 % of its speed,
  /// at n = 14 t 8 %. The law already counts a push in σ², so the test
  /// only has to take out the speed of a clear push; 2 (the One Euro-style
  /// estimator's) also takes out half of a combined motion's turn (21:
  /// 1.055 × the low-pass, 32: 1.092 ×), infinity (all the speed) lets the
  /// pushes of the translation trials shorten τ (10: 1.095 ×, 15: 1.062 ×,
  /// 25: 1.086 ×). Noise has n ≫ t, so a still card keeps the long time
  /// constant.
  public var tiltTranslationRatio: Double = 4

  // MARK: Both

  /// A step longer than this, in seconds, is a gap in the data: the
  /// estimator re-initialises its inclination from the next reading rather
  /// than integrate across it.
  public var maximumStep: Double = 0.5

  /// Readings whose magnitude is outside this range, in g, carry no usable
  /// direction of gravity (free fall, a hard shock): the accelerometer-only
  /// estimator ignores them. The fusion keeps every reading in its
  /// low-passed mean, however far from 1 g (the mean of a violent
  /// translation is gravity only if no part of it is left out: leaving out
  /// the readings above 8 g let a 4–10 g translation pull the inclination
  /// 15° off), and only does not start its inclination from one below the
  /// range.
  public var usableAccelerationRange: ClosedRange<Double> = 0.3...8

  /// The largest magnitude, in g, that an axis of the accelerometer reads
  /// (the device's absinfo maximum over its resolution: ±2 g on a Steam
  /// Deck, ±4 g on a DualSense); infinity when unknown. A reading with an
  /// axis at it is clipped: not a measurement of the specific force, so not
  /// evidence of gravity, and the readings around it (the rest of a shake
  /// whose peaks clip) are not either, since their mean lacks the clipped
  /// part. The fusion's accelerometer correction holds from a clipped
  /// reading until ``clippedHoldTime`` after the last one; the gyroscope
  /// carries the inclination meanwhile.
  public var accelerometerRange: Double = .infinity
  /// The largest rate, rad/s, that an axis of the gyroscope reads (absinfo's
  /// maximum over its resolution: ±2000 °/s on a DualSense); infinity when
  /// unknown. A reading with an axis at it is saturated: the part of the
  /// turn beyond it is not read. A fast turn keeps its axis while it lasts,
  /// so the saturated axes are continued along the direction the rate was
  /// changing in before the cut, by as much as the axes below the range
  /// say (``SaturatedTurn``). Where that cannot be done (no two readings
  /// just before the cut; the turn almost wholly on the saturated axes),
  /// the almost-inertial frame has jumped by an unknown rotation: from the
  /// last such reading on, the low-pass starts afresh as at the start (the
  /// mean of the readings since, for one ``accelerometerTimeConstant``,
  /// the bias learning nothing meanwhile).
  public var gyroscopeRange: Double = .infinity
  /// The continuation of a saturated axis (``SaturatedTurn``) takes the
  /// direction of the turn from the last two readings before the cut when
  /// they are at most this many seconds apart: 0.05 s, several samples of
  /// any motion sensor (4 ms at 250 Hz), far less than a flick's 0.3 s.
  public var saturationDirectionStep: Double = 0.05
  /// …and continues only while the axes below the range hold at least this
  /// part of that direction's length: 0.01. Below it the turn is all but
  /// wholly on the saturated axes and the rest say nothing of it.
  public var saturationVisibleShare: Double = 0.01
  /// Readings whose bias-corrected rate is above this part of the range go
  /// through the continuation, which keeps the two before a cut: 0.5, so
  /// that a flick is followed from well before it reaches the range, and
  /// the common sample costs one comparison.
  public var saturationOnset: Double = 0.5
  /// Seconds after a clipped reading during which the accelerometer does
  /// not correct the inclination: 1 s, one period of the slowest shake that
  /// reaches a ±2 g range by hand (at 1 Hz that is ±50 cm of travel), so
  /// the unclipped stretches between a shake's clipped peaks never enter
  /// the low-pass. A gyroscope with a known bias drifts well under 0.1° in
  /// that second. For as long again after the hold, the readings' part
  /// away from the low-passed gravity is faded in (from none to all of
  /// it): a shake that goes on below the range would otherwise enter the
  /// low-pass at whatever phase its oscillation is in, a part-period mean
  /// that acts as a step.
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
