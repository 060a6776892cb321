/// The tunable constants of the estimators.
///
/// The defaults were tuned on BROAD trials 02, 07 and 25 (a grid over the
/// accelerometer time constant, the motion-bias time constant and the
/// disturbance scale and window), the same trials docs/bench-attitude.md
/// reports: those figures are in-sample.
public struct FusionParameters: Hashable, Sendable {
  // MARK: Gyroscope + accelerometer

  /// Time constant, in seconds, of the low-pass that the accelerometer goes
  /// through in the gyroscope's almost-inertial frame: how long the
  /// accelerometer takes to correct the inclination (VQF's `tauAcc`).
  public var accelerometerTimeConstant: Double = 5.0

  /// Seconds between accelerometer corrections, each on the mean of the
  /// readings since the last one; 0 corrects at every sample.
  public var correctionInterval: Double = 0.02

  /// Time constant, in seconds, with which inclination corrections are
  /// turned into a gyroscope bias estimate while the card moves.
  public var motionBiasTimeConstant: Double = 10.0

  /// Time constant, in seconds, with which the bias follows the gyroscope's
  /// mean while the card rests.
  public var restBiasTimeConstant: Double = 1.0

  /// Largest gyroscope bias the estimator believes in, rad/s per axis.
  public var maximumBias: Double = 2.0 * .pi / 180

  /// Rest: the gyroscope stays within this many rad/s of its short-term mean,
  /// and that mean is below it too (so a turn slower than this, held for
  /// ``restMinimumDuration``, is taken for rest and not integrated)…
  public var restGyroscopeThreshold: Double = 2.0 * .pi / 180
  /// …and the accelerometer within this many g of its short-term mean…
  public var restAccelerometerThreshold: Double = 0.05
  /// …for at least this many seconds.
  public var restMinimumDuration: Double = 1.5
  /// Time constant, in seconds, of the short-term means of rest detection.
  public var restFilterTimeConstant: Double = 0.5

  /// While the card is shaken or tapped, the accelerometer time constant
  /// grows by the factor `1 + d/scale²`, where `d` is the mean square of the
  /// readings' distance from 1 g over ``disturbanceTimeConstant``. In g;
  /// infinity keeps the time constant fixed.
  public var disturbanceScale: Double = 1.5
  /// Time constant, in seconds, of that mean square.
  public var disturbanceTimeConstant: Double = 6.0

  // MARK: Accelerometer only

  /// Time constant, in seconds, of the accelerometer-only low-pass while
  /// the readings stay near 1 g.
  public var tiltTimeConstant: Double = 0.01
  /// While readings stray from 1 g, that time constant grows by the factor
  /// `1 + d/scale²`, where `d` is the mean square distance of the readings
  /// from 1 g over ``tiltDisturbanceTimeConstant``; in g.
  public var tiltDisturbanceScale: Double = 0.1
  /// Time constant, in seconds, of that mean square.
  public var tiltDisturbanceTimeConstant: Double = 1.0
  /// The longest the accelerometer-only time constant grows to, seconds.
  public var tiltMaximumTimeConstant: Double = 1.0

  // MARK: Both

  /// A step longer than this, in seconds, is a gap in the data: the
  /// estimator re-initialises its inclination from the next reading rather
  /// than integrate across it.
  public var maximumStep: Double = 0.5

  /// Readings whose magnitude is outside this range, in g, carry no usable
  /// direction of gravity (free fall, a hard shock) and do not correct
  /// the inclination.
  public var usableAccelerationRange: ClosedRange<Double> = 0.3...8

  public init() {}
}
