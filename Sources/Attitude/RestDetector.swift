/// Rest detection: the short-term means of the gyroscope and the
/// accelerometer, the current ``RestWindow`` of steady readings, and
/// whether the card rests.
///
/// A reading is steady when each of the gyroscope and accelerometer is
/// near its short-term mean and the gyroscope's mean is a bias the fusion
/// can hold (VQF's test, which does not look at the bias estimate). A
/// window of steady readings that lasts ``FusionParameters/restMinimumDuration``
/// (the first: ``FusionParameters/initialRestMinimumDuration``) is judged by
/// ``BiasObserver/acceptsRest(_:)``.
struct RestDetector: Sendable {
  /// True while the card rests: a rest window has been accepted and the
  /// readings have stayed steady since.
  var isAtRest = false
  var gyroMean = Vector3.zero
  var accelMean = Vector3(0, 0, 1)
  /// The current stretch of steady readings, if any.
  var window = RestWindow.closed
  /// Squared distance from the bias within which a short-term gyroscope
  /// mean is consistent with it, (rad/s)²; updated with the covariance.
  var gate2 = 0.0

  /// 1 / ``FusionParameters/restFilterTimeConstant``, 1/s.
  let rate: Double
  let gyroscopeLimit2: Double
  let accelerometerLimit2: Double
  let biasGate2: Double
  /// Variance of the short-term gyroscope mean of a still card, (rad/s)².
  let shortTermMeanVariance: Double
  let minimumDuration: Double
  let initialMinimumDuration: Double

  init(_ parameters: FusionParameters) {
    rate = 1 / max(parameters.restFilterTimeConstant, 1e-9)
    gyroscopeLimit2 = parameters.restGyroscopeThreshold * parameters.restGyroscopeThreshold
    accelerometerLimit2 =
      parameters.restAccelerometerThreshold * parameters.restAccelerometerThreshold
    biasGate2 = parameters.restBiasGate * parameters.restBiasGate
    // A first-order low-pass with time constant τ averages white noise like a 2τ mean.
    let noise2 = parameters.restGyroscopeNoise * parameters.restGyroscopeNoise
    shortTermMeanVariance = noise2 / (2 * parameters.restFilterTimeConstant)
    minimumDuration = parameters.restMinimumDuration
    initialMinimumDuration = parameters.initialRestMinimumDuration
  }

  /// The readings start afresh (the first sample, a gap): the means start
  /// from them, and no window is open.
  mutating func restart(gyro: Vector3, acceleration: Vector3) {
    gyroMean = gyro
    accelMean = acceleration
    stop()
  }

  /// No rest, and no window: a stored bias, a reset.
  mutating func stop() {
    window.isOpen = false
    isAtRest = false
  }

  /// The gate for a bias whose least known axis has variance `biasVariance`.
  mutating func updateGate(biasVariance: Double) {
    gate2 = biasGate2 * (biasVariance + shortTermMeanVariance)
  }

  /// Runs at every sample with a gyroscope: updates the short-term means and
  /// the current window. `orientation` is the almost-inertial orientation
  /// just integrated (card → inertial), where a new window starts. Returns
  /// true when the window has lasted long enough to be judged. Inlined into
  /// `update`.
  @inline(__always)
  mutating func add(
    gyro: Vector3, acceleration: Vector3, dt: Double, orientation: Quaternion,
    bias: BiasObserver
  ) -> Bool {
    // Backward Euler (x/(1 + x)): three instructions where the exact
    // weight's series takes ten, at every sample; dt/τ is below 0.01.
    let x = dt * rate
    let alpha = x / (1 + x)
    gyroMean += alpha * (gyro - gyroMean)
    accelMean += alpha * (acceleration - accelMean)
    let steady =
      (gyro - gyroMean).lengthSquared < gyroscopeLimit2
      && (acceleration - accelMean).lengthSquared < accelerometerLimit2
      && bias.isWithinLimit(gyroMean - bias.centre)
    guard steady else {
      isAtRest = false
      window.isOpen = false
      return false
    }
    // A steady turn that the estimate cannot explain is not (yet) rest.
    if isAtRest && (gyroMean - bias.bias).lengthSquared > gate2 { isAtRest = false }
    guard window.isOpen else {
      isAtRest = false
      window = RestWindow(start: orientation)
      return false
    }
    window.add(gyro, acceleration: acceleration, interval: dt)
    let needed = bias.isConfirmed ? minimumDuration : initialMinimumDuration
    return window.duration >= needed
  }

  /// The judged window was rest (`accepted`) or not; the next starts at
  /// `orientation`.
  mutating func close(accepted: Bool, orientation: Quaternion) {
    isAtRest = accepted
    window = RestWindow(start: orientation)
  }
}
