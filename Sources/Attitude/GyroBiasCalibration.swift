/// Measures a gyroscope's bias on purpose: feed it the samples of a card
/// held still, read the bias, its uncertainty and whether the card moved.
///
/// Pure and deterministic (no clock, no device): `tilt-cli calibrate` drives
/// it with live samples. The bias is the mean rate; its uncertainty the
/// standard error of that mean per axis, at least what
/// ``FusionParameters/restGyroscopeNoise`` allows over the duration.
///
/// Motion is variation, not size: the card counts as moved, and the
/// measurement as void, as soon as a reading strays from the mean so far
/// by more than the fusion's rest thresholds
/// (``FusionParameters/restGyroscopeThreshold``,
/// ``FusionParameters/restAccelerometerThreshold``). A still card's steady
/// rate is its bias whatever its size, up to ``maximumBias`` on an axis;
/// beyond ``FusionParameters/maximumBias`` it is ``isLarge``: more than the
/// fusion would learn by itself. A steady turn about the vertical reads the
/// same as a bias (no sensor tells them apart); a turn about any other axis
/// tilts the accelerometer's reading and counts as motion.
public struct GyroBiasCalibration: Sendable {
  /// The largest bias measured, rad/s on an axis: 40 °/s. Consumer IMUs'
  /// datasheets allow a zero-rate offset of up to ±20 °/s out of the box
  /// (InvenSense MPU-6050: initial tolerance ±20 °/s) and as much again over
  /// their temperature range; a steadier rate than that is a turn.
  public static let maximumBias = 40 * Double.pi / 180

  public let parameters: FusionParameters
  /// Samples with a rotation rate taken so far.
  public private(set) var sampleCount = 0
  /// Seconds from the first sample to the last.
  public private(set) var duration = 0.0
  /// True once the card moved; stays true (start a new calibration).
  public private(set) var hasMoved = false

  var firstTime: Double?
  var mean = Vector3.zero
  /// Sum of squared deviations from the mean, per axis (Welford).
  var squares = Vector3.zero
  var accelerationMean = Vector3.zero

  public init(parameters: FusionParameters = .init()) {
    self.parameters = parameters
  }

  /// Takes one sample. Samples without a rotation rate or with a
  /// non-finite field are ignored; returns whether the sample was taken.
  @discardableResult
  public mutating func add(_ sample: MotionSample) -> Bool {
    guard sample.isFinite, let rate = sample.rotationRate else { return false }
    if let firstTime {
      duration = max(duration, sample.time - firstTime)
    } else {
      firstTime = sample.time
    }
    sampleCount += 1
    let n = Double(sampleCount)
    if sampleCount > 1 {
      let g = parameters.restGyroscopeThreshold
      let a = parameters.restAccelerometerThreshold
      if (rate - mean).lengthSquared > g * g
        || (sample.acceleration - accelerationMean).lengthSquared > a * a
      {
        hasMoved = true
      }
    }
    let delta = rate - mean
    mean += delta / n
    let after = rate - mean
    squares += Vector3(delta.x * after.x, delta.y * after.y, delta.z * after.z)
    accelerationMean += (sample.acceleration - accelerationMean) / n
    return true
  }

  /// The mean rate, rad/s, card frame; nil before the first sample.
  public var bias: Vector3? { sampleCount > 0 ? mean : nil }

  /// True when the steady rate is beyond ``maximumBias`` on an axis: a
  /// steady turn, not a bias. There is no ``estimate`` then.
  public var isBeyondMaximum: Bool {
    let m = Self.maximumBias
    return abs(mean.x) > m || abs(mean.y) > m || abs(mean.z) > m
  }

  /// True when the bias is beyond ``FusionParameters/maximumBias`` on an
  /// axis: more than the fusion learns by itself, so a device with it
  /// drifts unless it starts from this calibration.
  public var isLarge: Bool {
    let m = parameters.maximumBias
    return abs(mean.x) > m || abs(mean.y) > m || abs(mean.z) > m
  }

  /// Standard deviation of ``bias`` per axis, rad/s; nil before two samples.
  public var uncertainty: Vector3? {
    guard sampleCount > 1 else { return nil }
    let n = Double(sampleCount)
    let floor2 =
      parameters.restGyroscopeNoise * parameters.restGyroscopeNoise / max(duration, 1e-3)
    func sigma(_ s: Double) -> Double { max(s / (n - 1) / n, floor2).squareRoot() }
    return Vector3(sigma(squares.x), sigma(squares.y), sigma(squares.z))
  }

  /// The result as the fusion takes it (``GyroAccelFusion/seedBias(_:)``);
  /// nil before two samples, once the card moved, or beyond ``maximumBias``.
  public var estimate: GyroBiasEstimate? {
    guard !hasMoved, !isBeyondMaximum, let bias, let uncertainty else { return nil }
    return GyroBiasEstimate(bias: bias, uncertainty: uncertainty, isConfirmedByRest: true)
  }
}
