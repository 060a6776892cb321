import Foundation
import MotionSimulator
import Testing

@testable import Attitude

/// A fusion that starts on a moving card: the start's mean and the time
/// constant while the gyroscope bias is not known yet.
@Suite struct StartInMotionTests {
  /// During the start the inclination is the mean of the readings so far
  /// (VQF's start), and that mean is followed as it moves, not held for a
  /// whole correction block: with one push in the first reading and
  /// gravity after it, each of the next readings moves the estimate, to the
  /// mean's direction. The fusion held the first reading's direction for
  /// 20 ms (5 readings at 250 Hz).
  @Test func startFollowsTheMeanOfTheReadings() {
    var parameters = FusionParameters()
    parameters.shockScale = .infinity  // every reading weighs alike: a plain mean
    var fusion = GyroAccelFusion(parameters: parameters)
    let pushed = Vector3(0.5, 0, 1)
    let still = Vector3(0, 0, 1)
    var sum = Vector3.zero
    for k in 0..<8 {
      let reading = k == 0 ? pushed : still
      sum += reading
      let estimate = fusion.update(
        MotionSample(time: Double(k) * 0.004, acceleration: reading, rotationRate: .zero))!
      let mean = sum.normalized!
      let error = InclinationScore.error(estimate.orientation.upVector, mean)
      #expect(error < 1e-6, "reading \(k): \(error)° from the mean's direction")
    }
  }

  /// The time constant's law weighs the gyroscope's drift against the
  /// push that leaks through. A bias that is not known yet drifts the frame
  /// too, so the time constant stays short until it is learnt, and
  /// lengthens for a pushed card once it is. Sustained combined motion
  /// (90 °/s, 0.7 g) seed 42: the law took τ to its 6 s bound within a
  /// second, with the bias 1.5 °/s off, and the inclination was 6.0° off
  /// from 9 s to 19 s (VQF's fixed 3 s: 2.9°).
  @Test func timeConstantWaitsForTheBias() {
    let recording = StressSuite.named("sustained-combined")!.recording(seed: 42)
    var unknown = GyroAccelFusion()
    var known = GyroAccelFusion(
      initialBias: GyroBiasEstimate(
        bias: recording.sensor.gyroscopeBias,
        uncertainty: 0.05 * .pi / 180))
    var stretchUnknown: [Double] = []
    var stretchKnown: [Double] = []
    for s in recording.samples where s.time < 10 {
      _ = unknown.update(s)
      _ = known.update(s)
      if s.time > 5 {
        stretchUnknown.append(1 / unknown.trust)
        stretchKnown.append(1 / known.trust)
      }
    }
    let minimum = FusionParameters().minimumAccelerometerTimeConstant
    let tau0 = FusionParameters().accelerometerTimeConstant
    let longestUnknown = stretchUnknown.max()! * tau0
    let shortestKnown = stretchKnown.min()! * tau0
    #expect(longestUnknown < minimum + 0.1, "τ \(longestUnknown) s with the bias unknown")
    #expect(shortestKnown > 2 * tau0 - 0.1, "τ \(shortestKnown) s with the bias known")
  }

  /// The same case scored: from 9 s to 19 s (the worst 10 s window against
  /// VQF's before: 6.0°) within VQF's 2.9° on the same samples (now 2.0°).
  @Test func sustainedMotionStartsWithinVQF() {
    let recording = StressSuite.named("sustained-combined")!.recording(seed: 42)
    var fusion = GyroAccelFusion()
    let errors = InclinationScore.errors(&fusion, on: recording)
    let times = recording.samples.map(\.time)
    let window = InclinationScore.rmse(errors, times: times, in: 9..<19)
    #expect(window < 2.9, "\(window)° from 9 s to 19 s; VQF 2.9°")
  }
}
