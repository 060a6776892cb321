/// The gyroscope bias learned at rest.
///
/// Steady readings (each gyroscope and accelerometer reading near its
/// short-term mean, each axis of the gyroscope's mean a bias the fusion can
/// hold, within ``FusionParameters/maximumBias`` of ``BiasObserver/centre``: VQF's
/// test, which does not look at the bias estimate) open a ``RestWindow``.
/// At the end of each window of ``FusionParameters/restMinimumDuration``
/// (the first after a start or ``GyroAccelFusion/seedBias(_:)``:
/// ``FusionParameters/initialRestMinimumDuration``) the window's mean rate
/// is judged:
///
/// - the accelerometer turns as the mean says: a slow turn, not a rest;
/// - a stored bias (``GyroAccelFusion/seedBias(_:)``) that no rest has confirmed yet: it is
///   rest, and the estimate is as unsure as the change the rest shows
///   across gravity (a stored bias is from an earlier session: its
///   uncertainty is its measurement's, not the change since, and a change
///   that shows across gravity is as large about the vertical). A rest that
///   shows none is weighted with it;
/// - no rest yet and nothing stored: it is rest if it agrees with the
///   estimate (at the start, with nothing known, every mean does); an
///   estimate that motion has learned on every axis tells a slow turn about
///   the vertical from a first rest, as a rest's value does later;
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
/// "Replaced" grows the estimate's covariance by the change the rest shows
/// across gravity; then, as in every accepted window, the mean is a Kalman
/// measurement whose error allows for a slow turn the window may still hold
/// (``BiasObserver/observeAtRest(_:mean:variance:)``). Its part about the vertical
/// is taken only from a card that shows no turn across gravity, and only if
/// it agrees with the estimate or the last rest: a turn about the vertical
/// is the one a rest cannot see, and a slow hand passes the rest test while
/// making it. An accepted window is integrated afresh with the new bias, so
/// a card at rest does not drift, not even in yaw.
extension BiasObserver {
  /// Judges a rest window that has lasted long enough (``RestDetector``):
  /// true when it is rest, with the bias updated from it and confirmed;
  /// false for a turn, which leaves the bias as it was.
  mutating func acceptsRest(_ window: RestWindow) -> Bool {
    let mean = window.meanRate
    let meanVariance = restGyroscopeNoise2 / window.duration

    func agrees(_ estimate: Vector3, variance: Double) -> Bool {
      (mean - estimate).lengthSquared <= restBiasGate2 * (variance + meanVariance)
    }
    let agreesWithEstimate = agrees(bias, variance: covariance.largestVariance)
    let seen = window.turnAcrossGravity()
    if window.accelerometerConfirmsTurn(by: mean, gyroscopeNoise2: meanVariance) {
      // The readings turned as the gyroscope's mean says: a slow turn, not a
      // rest (its rotation stays integrated).
      return false
    } else if isConfirmed && agreesWithEstimate {
      observeAtRest(seen, mean: mean, variance: meanVariance)
    } else if (isSeeded && !isConfirmed)
      || (isConfirmed
        ? agrees(confirmedBias, variance: confirmedVariance) : agreesWithEstimate)
      || window.accelerometerDisprovesTurn(by: mean - bias, gyroscopeNoise2: meanVariance)
    {
      if isConfirmed || !agreesWithEstimate || isSeeded {
        // The rest contradicts the estimate, or is the first since a stored
        // bias (which a change since, within the gate, would not contradict:
        // it was weighted with the rest, and a fifth to a third of the change
        // stayed after a 4-5 s rest): the estimate is as unsure as the change
        // the rest shows, and the rest is what is known now, as far as it
        // tells.
        covariance = BiasCovariance(variance: contradictedVariance(seen, mean: mean))
      }
      observeAtRest(seen, mean: mean, variance: meanVariance)
    } else {
      return false
    }
    clamp()
    isConfirmed = true
    confirmedBias = bias
    confirmedVariance = covariance.largestVariance
    return true
  }

  /// The Kalman update with a rest's mean rate `mean`, whose error has
  /// variance `variance` on each axis for a still card; `seen` is the
  /// window's ``RestWindow/turnAcrossGravity()``.
  ///
  /// A window of steady readings may still be a slow turn. Across gravity
  /// the accelerometer shows it: the turn its fitted slope gives, as far as
  /// it stands above the slope's own noise (the measured square less the
  /// noise's expected square, so a still card's noise is not taken for a
  /// turn), is left out of the measurement, whose error grows by that
  /// noise. About the vertical nothing shows it, so the vertical part of the
  /// mean measures the bias only
  ///
  /// - if the card shows no turn across gravity (within
  ///   ``FusionParameters/restBiasGate`` of the slope's noise): a card that
  ///   turns turns about an axis no sensor gives, and the part about the
  ///   vertical may be all of it. Even then a turn that small may hide
  ///   under the slope's noise: its part about the vertical, as a turn of
  ///   random direction would have (half the square across), is allowed
  ///   for in the measurement's error;
  /// - and if it agrees with the estimate (whose variance a contradicting
  ///   rest has grown by the change it shows across gravity) or with the
  ///   last rest. A vertical mean that agrees with neither is a turn about
  ///   the vertical: a bias that changed in a random direction would have
  ///   shown across gravity as well.
  mutating func observeAtRest(
    _ seen: GravityTurn?, mean: Vector3, variance: Double
  ) {
    guard let seen else {
      observe(mean, along: Vector3(1, 0, 0), variance: variance)
      observe(mean, along: Vector3(0, 1, 0), variance: variance)
      observe(mean, along: Vector3(0, 0, 1), variance: variance)
      return
    }
    let turn = seen.beyondNoise
    let acrossVariance = variance + (turn == .zero ? 0 : seen.variance)
    let measurement = mean - turn
    let up = seen.up
    let other = abs(up.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
    let across1 = up.cross(other).normalized ?? Vector3(0, 0, 1)
    let verticalVariance = variance + restBiasGate2 * seen.variance / 2
    let vertical = measurement.dot(up)
    func agreesVertically(_ estimate: Vector3, variance estimateVariance: Double) -> Bool {
      let d = vertical - estimate.dot(up)
      return d * d <= restBiasGate2 * (estimateVariance + verticalVariance)
    }
    let turning = seen.rate.lengthSquared > restBiasGate2 * seen.variance
    let observesVertical =
      !turning
      && (agreesVertically(bias, variance: up.dot(covariance.multiply(up)))
        || (isConfirmed && agreesVertically(confirmedBias, variance: confirmedVariance)))
    observe(measurement, along: across1, variance: acrossVariance)
    observe(measurement, along: up.cross(across1), variance: acrossVariance)
    if observesVertical { observe(measurement, along: up, variance: verticalVariance) }
  }

  /// The variance of each axis of the bias once a rest with mean rate `mean`
  /// has contradicted the estimate: the estimate's own, and the change the
  /// rest shows across gravity (its mean less the turn the accelerometer
  /// saw, less the estimate), as a change of random direction would have
  /// about each axis (half its square across). Nothing shows a change about
  /// the vertical, so none is assumed there.
  func contradictedVariance(
    _ seen: GravityTurn?, mean: Vector3
  ) -> Double {
    guard let seen else { return maximumBias2 }
    let change = mean - seen.beyondNoise - bias
    let across = change - seen.up * change.dot(seen.up)
    return min(maximumBias2, covariance.largestVariance + across.lengthSquared / 2)
  }

  /// One scalar Kalman update of the bias: `measurement`'s component along
  /// the unit vector `h`, with error variance `variance`.
  mutating func observe(_ measurement: Vector3, along h: Vector3, variance: Double) {
    bias += covariance.observe(
      direction: h, innovation: (measurement - bias).dot(h), variance: variance)
  }
}
