import Foundation
import MotionSimulator
import Testing

@testable import Attitude

/// A hand that turns slowly (2–4 °/s, simulated slow drift) passes the rest
/// test whenever its rate dips below 2 °/s. Across gravity the accelerometer
/// shows the turn; about the vertical nothing does, so a rest's vertical
/// mean is a bias only if the card shows no turn and the mean agrees with
/// what is known of the bias (GyroAccelFusion+Rest.swift).
@Suite struct SlowTurnRestTests {
  /// The largest bias error, °/s, from `start` seconds on.
  static func largestBiasError(_ recording: SimulatedRecording, from start: Double) -> Double {
    var fusion = GyroAccelFusion()
    var worst = 0.0
    for sample in recording.samples {
      _ = fusion.update(sample)
      if sample.time >= start {
        worst = max(worst, degrees((fusion.bias - recording.sensor.gyroscopeBias).length))
      }
    }
    return worst
  }

  /// Slow drift seed 11: a rest at 66 s whose card turned visibly across
  /// gravity (1.2 °/s) agreed with the loosely known value of the rest at
  /// 0.5 s, and its vertical mean (the turn) became the bias: 1.33 °/s off
  /// from 68 s, where motion had brought it within 0.03 °/s. Seed 42: the
  /// first rest (13.9 s) took a turn of 2.4 °/s about the vertical for the
  /// bias, 2 °/s off, still 0.48 °/s off at 60 s. From 60 s on the bias
  /// now stays within 0.15 °/s of the truth (0.10 and 0.04 °/s).
  @Test(arguments: [11, 42] as [UInt64])
  func aTurningRestLeavesTheVerticalBias(seed: UInt64) {
    let recording = StressSuite.named("slow-drift")!.recording(seed: seed)
    let error = Self.largestBiasError(recording, from: 60)
    #expect(error < 0.15, "bias error from 60 s on \(error)°/s")
  }

  /// Issue 19's rule where slow drift missed it (held out, looked at
  /// since): RMSE at most VQF's on the same samples, and the 10 s windows
  /// around the old miss within 1.5 × VQF's same window + 0.5° (VQF's
  /// windows below, scripts/bench-attitude's scoring). Seed 42 missed from
  /// 44 s (2.12° against a bound of 1.71°), seed 32 from 81 s (1.86°
  /// against 1.56°): a turn about the vertical taken for the bias (seed 42
  /// by its first rest, seed 32 by a rest at 62 s that the accelerometer
  /// proved still across gravity while its mean was 2.4 °/s off about the
  /// vertical).
  @Test(arguments: [
    (
      42 as UInt64, 2.308, 38,
      [
        1.49, 1.34, 1.19, 1.05, 0.92, 0.82, 0.81, 0.92, 1.14, 1.42, 1.74, 2.09, 2.44, 2.79, 3.10,
        3.36, 3.57, 3.72,
      ]
    ),
    (
      32 as UInt64, 1.560, 70,
      [
        1.17, 1.18, 1.18, 1.16, 1.12, 1.06, 0.99, 0.91, 0.84, 0.79, 0.75, 0.71, 0.67, 0.65, 0.63,
        0.61, 0.60, 0.60, 0.59, 0.58, 0.57, 0.57,
      ]
    ),
  ])
  func slowDriftMeetsTheRule(seed: UInt64, vqfRMSE: Double, first: Int, vqf: [Double]) {
    let recording = StressSuite.named("slow-drift")!.recording(seed: seed)
    let times = recording.samples.map(\.time)
    var fusion = GyroAccelFusion()
    let e = InclinationScore.errors(&fusion, on: recording)
    let rmse = InclinationScore.rmse(e, times: times)
    #expect(rmse <= vqfRMSE, "RMSE \(rmse)°, VQF \(vqfRMSE)°")
    let windows = InclinationScore.windows(e, times: times)
    for (k, v) in vqf.enumerated() {
      let ours = windows[first + k]
      #expect(ours <= 1.5 * v + 0.5, "window from \(first + k) s: \(ours)°, VQF \(v)°")
    }
  }
}
