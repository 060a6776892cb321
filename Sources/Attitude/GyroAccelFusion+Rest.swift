/// Rest detection and the gyroscope bias learned at rest.
///
/// Steady readings (each gyroscope and accelerometer reading near its
/// short-term mean, the gyroscope's mean below
/// ``FusionParameters/restGyroscopeThreshold``: VQF's test, which does not
/// look at the bias estimate) open a ``RestWindow``. At the end of each
/// window of ``FusionParameters/restMinimumDuration`` (the first after a
/// start or a seed: ``FusionParameters/initialRestMinimumDuration``) the
/// window's mean rate is judged:
///
/// - the accelerometer turns as the mean says: a slow turn, not a rest;
/// - nothing has confirmed the bias yet (start, stored value): it is rest.
///   The mean replaces the estimate, or is weighted with it if the two
///   agree: a stored bias that the first rest contradicts is replaced;
/// - it agrees (``FusionParameters/restBiasGate`` standard deviations) with
///   the estimate, or with the value the last rest left, grown by the random
///   walk since: it is rest, however far motion has moved the estimate;
/// - it disagrees with both, but the accelerometer shows that the card did
///   not turn about a horizontal axis as the estimate says it did: it is
///   rest, and the mean replaces the estimate (a bias that changed);
/// - otherwise it is a steady turn about the vertical that no sensor can
///   tell from a changed bias: its rotation stays integrated and the bias
///   learns nothing from it.
///
/// "Replaced" voids the estimate's covariance; then, as in every accepted
/// window, the mean is a Kalman measurement whose error allows for a slow
/// turn the window may still hold (``observeBiasAtRest(_:mean:variance:)``).
/// An accepted window is integrated afresh with the new bias, so a card at
/// rest does not drift, not even in yaw.
extension GyroAccelFusion {
  /// Runs at every sample with a gyroscope: updates the short-term means and
  /// the current window. `orientation` is the almost-inertial orientation
  /// just integrated (card → inertial), replaced when an accepted rest is
  /// integrated afresh. Inlined into `update`; the rare end of a window is
  /// ``closeRestWindow(orientation:)``.
  @inline(__always)
  mutating func detectRest(
    gyro: Vector3, acceleration: Vector3, dt: Double, orientation: inout Quaternion
  ) {
    // Backward Euler (x/(1 + x)): three instructions where the exact
    // weight's series takes ten, at every sample; dt/τ is below 0.01.
    let x = dt * restRate
    let alpha = x / (1 + x)
    restGyroMean += alpha * (gyro - restGyroMean)
    restAccelMean += alpha * (acceleration - restAccelMean)
    let steady =
      (gyro - restGyroMean).lengthSquared < restGyroscopeLimit2
      && (acceleration - restAccelMean).lengthSquared < restAccelerometerLimit2
      && (restGyroMean - biasCentre).lengthSquared < restGyroscopeLimit2
    guard steady else {
      isAtRest = false
      restWindow.isOpen = false
      return
    }
    // A steady turn that the estimate cannot explain is not (yet) rest.
    if isAtRest && (restGyroMean - bias).lengthSquared > restGate2 { isAtRest = false }
    guard restWindow.isOpen else {
      isAtRest = false
      restWindow = RestWindow(start: orientation)
      return
    }
    restWindow.add(gyro, acceleration: acceleration, interval: dt)
    let needed =
      isBiasConfirmed ? parameters.restMinimumDuration : parameters.initialRestMinimumDuration
    guard restWindow.duration >= needed else { return }
    closeRestWindow(orientation: &orientation)
  }

  /// The window has lasted long enough: accepts it as rest, updating the
  /// bias and integrating the window afresh with it, or rejects it.
  @inline(never)
  mutating func closeRestWindow(orientation: inout Quaternion) {
    let window = restWindow
    let mean = window.meanRate
    let meanVariance = restGyroscopeNoise2 / window.duration

    func agrees(_ estimate: Vector3, variance: Double) -> Bool {
      (mean - estimate).lengthSquared <= restBiasGate2 * (variance + meanVariance)
    }
    if window.accelerometerConfirmsTurn(by: mean, gyroscopeNoise2: meanVariance) {
      // The readings turned as the gyroscope's mean says: a slow turn, not a
      // rest (its rotation stays integrated).
      isAtRest = false
      restWindow = RestWindow(start: orientation)
      return
    } else if isBiasConfirmed && agrees(bias, variance: biasCovariance.largestVariance) {
      observeBiasAtRest(window, mean: mean, variance: meanVariance)
    } else if !isBiasConfirmed || agrees(confirmedBias, variance: confirmedVariance)
      || window.accelerometerDisprovesTurn(by: mean - bias, gyroscopeNoise2: meanVariance)
    {
      if isBiasConfirmed || !agrees(bias, variance: biasCovariance.largestVariance) {
        // The rest contradicts the estimate: what the estimate knew is void,
        // and the rest is what is known now, as far as it tells.
        biasCovariance = BiasCovariance(variance: maximumBias2)
      }
      observeBiasAtRest(window, mean: mean, variance: meanVariance)
    } else {
      isAtRest = false
      restWindow = RestWindow(start: orientation)
      return
    }
    clampBias()
    isBiasConfirmed = true
    confirmedBias = bias
    confirmedVariance = biasCovariance.largestVariance
    updateRestGate()
    isAtRest = true
    orientation = window.endOrientation(bias: bias)
    restWindow = RestWindow(start: orientation)
  }

  /// The Kalman update with a rest's mean rate `mean`, whose error has
  /// variance `variance` on each axis for a still card.
  ///
  /// A window of steady readings may still be a slow turn. Across gravity
  /// the accelerometer shows it: the turn its fitted slope gives, as far as
  /// it stands above the slope's own noise (the measured square less the
  /// noise's expected square, so a still card's noise is not taken for a
  /// turn), is left out of the measurement, whose error grows by that
  /// noise. About the vertical nothing shows it: it is allowed for as a turn
  /// of random direction with that part across would have (a third of the
  /// square about each axis: half the square across), so the steadier the
  /// card across gravity, the more the rest says about the vertical bias.
  mutating func observeBiasAtRest(_ window: RestWindow, mean: Vector3, variance: Double) {
    guard let seen = window.turnAcrossGravity() else {
      observe(mean, along: Vector3(1, 0, 0), variance: variance)
      observe(mean, along: Vector3(0, 1, 0), variance: variance)
      observe(mean, along: Vector3(0, 0, 1), variance: variance)
      return
    }
    let measured2 = seen.rate.lengthSquared
    let excess = max(0, measured2 - 2 * seen.variance)
    let turn = excess > 0 ? seen.rate * (excess / measured2) : .zero
    let acrossVariance = variance + (excess > 0 ? seen.variance : 0)
    let measurement = mean - turn
    let up = seen.up
    let other = abs(up.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
    let across1 = up.cross(other).normalized ?? Vector3(0, 0, 1)
    observe(measurement, along: across1, variance: acrossVariance)
    observe(measurement, along: up.cross(across1), variance: acrossVariance)
    observe(measurement, along: up, variance: variance + excess / 2)
  }

  /// One scalar Kalman update of the bias: `measurement`'s component along
  /// the unit vector `h`, with error variance `variance`.
  mutating func observe(_ measurement: Vector3, along h: Vector3, variance: Double) {
    bias += biasCovariance.observe(
      direction: h, innovation: (measurement - bias).dot(h), variance: variance)
  }
}
