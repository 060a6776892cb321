/// The tunable constants of the estimators.
///
/// The fusion's rest and bias constants follow the sensor's physics (noise,
/// bias drift) and VQF's published defaults (Laidig & Seel 2023): the
/// accelerometer time constant of 3 s, the rest thresholds, a motion bias
/// measurement worth VQF's. docs/bench-attitude.md gives the figures on the
/// twelve shared BROAD trials and the leave-one-kind-out cross-validation
/// (parameters chosen without the kind of motion they are scored on).
public struct FusionParameters: Hashable, Sendable {
  // MARK: Gyroscope + accelerometer

  /// Time constant, in seconds, of the low-pass that the accelerometer goes
  /// through in the gyroscope's almost-inertial frame: how long the
  /// accelerometer takes to correct the inclination (VQF's `tauAcc`).
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
  /// the measurement noise of the bias's Kalman update in motion.
  public var motionBiasNoise: Double = 0.45 * .pi / 180

  /// Time constant, in seconds, of the accelerometer low-pass while the
  /// card rests (then it reads gravity alone): after a disturbance the
  /// inclination converges within a few of these once the card is still.
  public var restAccelerometerTimeConstant: Double = 1.0

  /// No longer used: at rest the bias is now the variance-weighted mean of
  /// the prior estimate and the gyroscope's mean over the rest
  /// (``restGyroscopeNoise``, ``biasRandomWalk``). Kept for source
  /// compatibility.
  public var restBiasTimeConstant: Double = 1.0

  /// Largest gyroscope bias the estimator believes in, rad/s per axis; also
  /// the standard deviation of the bias before anything is known of it.
  public var maximumBias: Double = 2.0 * .pi / 180

  /// Rest (VQF's test): each gyroscope reading stays within this many rad/s
  /// of the short-term mean, and that mean is below it too…
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
  /// sensor sooner, and let motion move it faster.
  public var biasRandomWalk: Double = 0.01 * .pi / 180

  /// While the card is shaken or tapped, the accelerometer time constant
  /// grows by the factor `1 + d/scale²`, where `d` is the mean square of the
  /// readings' distance from 1 g over ``disturbanceTimeConstant``. In g;
  /// infinity keeps the time constant fixed.
  public var disturbanceScale: Double = 1.5
  /// Time constant, in seconds, of that mean square.
  public var disturbanceTimeConstant: Double = 6.0
  /// Within the low-pass, a reading `d` g away from 1 g weighs
  /// `1/(1 + d²/scale²)`: a knock weighs little, while the two halves of a
  /// sideways shake (equally far from 1 g) keep equal weights, so the mean
  /// stays unbiased. In g; infinity weighs all readings alike.
  public var shockScale: Double = 2.0

  // MARK: Accelerometer only

  /// The shortest time constant, in seconds, of the accelerometer-only
  /// low-pass, however fast the card turns.
  public var tiltTimeConstant: Double = 0.01
  /// While readings stray from 1 g, that time constant grows by the factor
  /// `1 + d/scale²`, where `d` is the mean square distance of the readings
  /// from 1 g over ``tiltDisturbanceTimeConstant``; in g.
  public var tiltDisturbanceScale: Double = 0.5
  /// Time constant, in seconds, of that mean square.
  public var tiltDisturbanceTimeConstant: Double = 1.0
  /// Cutoff, in Hz, of the accelerometer-only low-pass while the measured
  /// direction stands still…
  public var tiltMinimumCutoff: Double = 1.0
  /// …raised by this many Hz per rad/s at which it moves…
  public var tiltSpeedGain: Double = 0.5
  /// …that speed low-passed with this time constant, seconds.
  public var tiltSpeedTimeConstant: Double = 0.3
  /// The longest the accelerometer-only time constant grows to, seconds.
  public var tiltMaximumTimeConstant: Double = 3.0

  // MARK: Both

  /// A step longer than this, in seconds, is a gap in the data: the
  /// estimator re-initialises its inclination from the next reading rather
  /// than integrate across it.
  public var maximumStep: Double = 0.5

  /// Readings whose magnitude is outside this range, in g, carry no usable
  /// direction of gravity (free fall, a hard shock): the accelerometer-only
  /// estimator ignores them; the fusion ignores those above it, and keeps
  /// those below in its low-passed mean (where they weigh little) but does
  /// not start its inclination from one.
  public var usableAccelerationRange: ClosedRange<Double> = 0.3...8

  public init() {}
}
