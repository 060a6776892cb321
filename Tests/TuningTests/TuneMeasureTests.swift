import Attitude
import Foundation
import TestTools
import Testing

@testable import Tuning

/// `tune`'s measures on synthetic recordings whose answers are known: no
/// Euler singularity, a low-pass's lag is its time constant, and too little
/// rest or motion is named instead of measured.
@Suite struct TuneMeasureTests {
  /// 200 Hz of an IMU that starts at `start` (card → world), holds still for
  /// `still` seconds, turns about its own x axis at `rate` rad/s for `turn`
  /// seconds, and holds still again for `still` seconds; with sensor noise.
  static func recording(
    start: Quaternion, still: Double = 3, turn: Double = 2, rate: Double = 0.5,
    accelNoise: Double = 0.003, gyroNoise: Double = 0.003, seed: UInt64 = 7
  ) -> TuneData {
    var noise = SeededGenerator(seed: seed)
    var samples: [MotionSample] = []
    let dt = 0.005
    let total = 2 * still + turn
    var angle = 0.0
    for k in 0..<Int(total / dt) {
      let t = Double(k) * dt
      let turning = t >= still && t < still + turn
      let q = start * Quaternion(axis: Vector3(1, 0, 0), angle: angle)
      let up = q.upVector
      samples.append(
        MotionSample(
          time: t,
          acceleration: up
            + noise.gaussianVector(accelNoise),
          rotationRate: Vector3(turning ? rate : 0, 0, 0)
            + noise.gaussianVector(gyroNoise)))
      if turning { angle += rate * dt }
    }
    return TuneData(samples: samples, hasGyroscope: true)
  }

  static func scorer(_ data: TuneData, fusion: FusionMode = .auto) -> FilterScorer {
    var base = MotionConfiguration()
    base.fusion = fusion
    return FilterScorer(data: data, base: base, card: .init())
  }

  /// The same motion and the same noise, once lying flat and once standing
  /// upright (pitch −90°, where roll is undefined): the same wobble.
  @Test(arguments: [FusionMode.auto, .accel])
  func uprightIsMeasuredLikeFlat(fusion: FusionMode) throws {
    let flat = Self.scorer(Self.recording(start: .identity), fusion: fusion)
    let upright = Self.scorer(
      Self.recording(start: Quaternion(axis: Vector3(1, 0, 0), angle: -.pi / 2)), fusion: fusion)
    for setting in [FilterSetting(filter: .none), TuneReport.defaultSetting] {
      let a = flat.score(setting)
      let b = upright.score(setting)
      let (ja, jb) = (try #require(a.jitter), try #require(b.jitter))
      #expect(jb < 0.05 + 2 * ja, "\(setting.arguments): flat \(ja)°, upright \(jb)°")
      // The accelerometer alone cannot see roll while the card stands upright
      // (Attitude holds it there), so upright it wobbles in pitch only: less.
      let excess = fusion == .accel ? max(0, jb - ja) : abs(jb - ja)
      #expect(excess <= 0.25 * ja + 0.002, "\(setting.arguments): flat \(ja)°, upright \(jb)°")
      #expect(abs(try #require(b.lag) - (try #require(a.lag))) < 5)
    }
  }

  /// A first-order low-pass trails a steady turn by its time constant.
  @Test(arguments: [0.05, 0.1, 0.2])
  func lowPassLagsByItsTimeConstant(tau: Double) throws {
    let scorer = Self.scorer(
      Self.recording(start: .identity, turn: 3, rate: 0.8, accelNoise: 0.001, gyroNoise: 0.001))
    #expect(scorer.jitterProblem == nil && scorer.lagProblem == nil)
    let lag = try #require(scorer.score(FilterSetting(filter: .lowpass(tau: tau))).lag)
    #expect(abs(lag - tau * 1000) <= 0.15 * tau * 1000 + 5, "τ = \(tau) s: lag \(lag) ms")
    let none = try #require(scorer.score(FilterSetting(filter: .none)).lag)
    #expect(none < 5)
  }

  @Test func tooLittleRestAndNoMotionAreNamed() throws {
    // 0.6 s still at each end: 0.3 s left after settling, under the 1 s needed.
    let short = Self.scorer(Self.recording(start: .identity, still: 0.6))
    #expect(
      short.jitterProblem?.hasPrefix("too little rest") == true, "\(short.jitterProblem ?? "")")
    #expect(short.lagProblem == nil)
    // Never turning: rest only.
    let still = Self.scorer(Self.recording(start: .identity, still: 3, turn: 2, rate: 0))
    #expect(
      still.lagProblem
        == "no motion in this recording: lag cannot be measured; record a few tilts")
    #expect(still.jitterProblem == nil)
    let report = TuneReport(
      file: "still", scorer: still, scores: TuneSearch.grid.run(still) { _, _ in })
    #expect(!report.canScore)
    #expect(report.recommended.setting == TuneReport.defaultSetting)
  }

  /// The recommendation is never shakier nor laggier than the default.
  @Test(arguments: [UInt64(1), 2, 3])
  func recommendationDominatesTheDefault(seed: UInt64) throws {
    let scorer = Self.scorer(Self.recording(start: .identity, accelNoise: 0.01, seed: seed))
    let report = TuneReport(
      file: "synthetic", scorer: scorer, scores: TuneSearch.grid.run(scorer) { _, _ in })
    let standard = try #require(report.scores.first { $0.setting == TuneReport.defaultSetting })
    #expect(report.recommended.jitter! <= standard.jitter!)
    #expect(report.recommended.lag! <= standard.lag!)
    #expect(report.scores.map { $0.score! } == report.scores.map { $0.score! }.sorted())
  }
}
