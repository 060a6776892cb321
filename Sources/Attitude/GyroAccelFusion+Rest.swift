/// Rest detection and the gyroscope bias learned at rest.
///
/// Steady readings open a ``RestWindow``. Rest is accepted in windows of
/// ``FusionParameters/restMinimumDuration`` (the first, while the bias is
/// unknown, of ``FusionParameters/initialRestMinimumDuration``): if the
/// window's mean rate, and all along the short-term mean, are within
/// ``FusionParameters/restBiasGate`` standard deviations of the bias
/// estimate, the bias is updated as a Kalman filter would (estimate and
/// mean weighted by their inverse variances), the window is integrated
/// afresh with it, and the next window begins. A steady turn that the
/// estimate cannot explain fails the test as soon as the short-term mean
/// departs: the window is dropped, its rotation stays integrated with the
/// bias as it was, and the bias learns nothing from it.
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
    biasVariance = min(biasVariance + biasRandomWalk2 * dt, maximumBias2)
    let alpha = restFactor.alpha(for: dt)
    restGyroMean += alpha * (gyro - restGyroMean)
    restAccelMean += alpha * (acceleration - restAccelMean)
    let steady =
      (gyro - restGyroMean).lengthSquared < restGyroscopeLimit2
      && (acceleration - restAccelMean).lengthSquared < restAccelerometerLimit2
      && restGyroMean.lengthSquared < restGyroscopeLimit2
      && (restGyroMean - bias).lengthSquared
        <= restBiasGate2 * (biasVariance + shortTermMeanVariance)
    guard steady else {
      isAtRest = false
      // Most samples of a moving card: a test is cheaper than clearing the window.
      if restWindow != nil { restWindow = nil }
      return
    }
    guard restWindow != nil else {
      isAtRest = false
      restWindow = RestWindow(start: orientation)
      return
    }
    restWindow!.add(gyro, interval: dt)
    let needed =
      hasBiasEstimate ? parameters.restMinimumDuration : parameters.initialRestMinimumDuration
    guard restWindow!.duration >= needed else { return }
    closeRestWindow(orientation: &orientation)
  }

  /// The window has lasted long enough: accepts it as rest, updating the
  /// bias and integrating the window afresh with it, or rejects it.
  @inline(never)
  mutating func closeRestWindow(orientation: inout Quaternion) {
    let window = restWindow!

    let mean = window.meanRate
    let meanVariance = restGyroscopeNoise2 / window.duration
    let innovation = mean - bias
    let combinedVariance = biasVariance + meanVariance
    guard innovation.lengthSquared <= restBiasGate2 * combinedVariance else {
      isAtRest = false
      restWindow = RestWindow(start: orientation)
      return
    }
    bias += innovation * (biasVariance / combinedVariance)
    clampBias()
    biasVariance = biasVariance * meanVariance / combinedVariance
    hasBiasEstimate = true
    isAtRest = true
    orientation = window.endOrientation(bias: bias)
    restWindow = RestWindow(start: orientation)
  }
}
