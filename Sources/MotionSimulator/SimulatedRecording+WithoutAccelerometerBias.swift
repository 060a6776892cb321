import Attitude

extension SimulatedRecording {
  /// The readings less the simulated accelerometer bias: what an estimator
  /// would do with that bias known exactly (a diagnosis of what it costs).
  /// A clipped axis stays at the range: it read the range, not the bias.
  public func withoutAccelerometerBias() -> SimulatedRecording {
    var out = self
    let bias = sensor.accelerometerBias
    let range = sensor.accelerometerRange
    func unbiased(_ x: Double, _ b: Double) -> Double { abs(x) >= range ? x : x - b }
    for i in out.samples.indices {
      let a = out.samples[i].acceleration
      out.samples[i].acceleration = Vector3(
        unbiased(a.x, bias.x), unbiased(a.y, bias.y), unbiased(a.z, bias.z))
    }
    return out
  }
}
