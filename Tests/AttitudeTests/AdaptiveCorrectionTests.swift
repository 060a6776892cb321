import Foundation
import Testing

@testable import Attitude

/// The fusion's adaptive accelerometer correction (issue 12), each against
/// the same fusion with the adaptation turned off, on synthetic data with a
/// known truth: the time constant lengthens during a slow translation (and
/// hardly in a fast shake) and shortens while the card turns fast with a
/// gyroscope whose scale is off, a knock weighs little while a fast push
/// keeps its weight, and at rest the fast correction runs only while the
/// accelerometer disagrees with the estimate.
@Suite struct AdaptiveCorrectionTests {
  static func imu(seed: UInt64) -> SyntheticIMU {
    return SyntheticIMU(
      rate: 200, start: Attitude(pitch: 0.2, roll: -0.3, yaw: 1).quaternion, seed: seed,
      gyroBias: Vector3(radians(0.3), radians(-0.2), radians(0.4)), gyroNoise: radians(0.1),
      accelNoise: 0.003)
  }

  /// A slow wobble (a few °/s) about horizontal axes.
  static func wobble(_ t: Double) -> Vector3 {
    Vector3(0.08 * sin(0.7 * t), 0.06 * cos(0.5 * t + 1), 0.05 * sin(0.3 * t))
  }

  /// RMS and worst inclination error over the samples from `start` on.
  static func errors(
    _ parameters: FusionParameters, _ imu: SyntheticIMU, from start: Int
  ) -> (rms: Double, worst: Double) {
    var fusion = GyroAccelFusion(parameters: parameters)
    var sum = 0.0
    var worst = 0.0
    for (i, (s, truth)) in zip(imu.samples, imu.truth).enumerated() {
      let e = inclinationError(fusion.update(s)!.orientation, truth)
      guard i >= start else { continue }
      sum += e * e
      worst = max(worst, e)
    }
    return ((sum / Double(imu.samples.count - start)).squareRoot(), worst)
  }

  /// RMS inclination error from `start` on with the defaults and with the
  /// time constant's law off, and the defaults' time constant at the end, s.
  static func againstTheLawOff(_ imu: SyntheticIMU, from start: Int) -> (
    adaptive: Double, fixed: Double, timeConstant: Double
  ) {
    var off = FusionParameters()
    off.gyroscopeScaleError = 0
    var fusion = GyroAccelFusion()
    for s in imu.samples { _ = fusion.update(s) }
    return (
      errors(FusionParameters(), imu, from: start).rms, errors(off, imu, from: start).rms,
      fusion.parameters.accelerometerTimeConstant / fusion.trust
    )
  }

  /// A card pushed slowly back and forth (0.15 g, 5 s period, the direction
  /// turning in the world) while the hand barely turns it: the slow linear
  /// acceleration leaks through a fixed 3 s low-pass; the lengthened one
  /// lets less through.
  @Test func slowTranslationLengthensTheLowPass() {
    var imu = Self.imu(seed: 41)
    imu.move(for: 3)
    let start = imu.samples.count
    imu.move(
      for: 60, omega: Self.wobble,
      linear: { t in
        let a = 0.15 * sin(2 * .pi * t / 5)
        return Vector3(cos(0.05 * t), sin(0.05 * t), 0) * a
      })
    let (adaptive, fixed, tau) = Self.againstTheLawOff(imu, from: start)
    print(
      "slow translation: RMS \(adaptive)° adaptive, \(fixed)° fixed; "
        + "time constant at the end \(tau) s")
    #expect(adaptive < 0.8 * fixed)
    #expect(tau > 4.5)
  }

  /// A card turned fast (about 2 rad/s about changing axes, no push) by a
  /// gyroscope that reads 1 % high on two axes: its drift grows with the
  /// turn, and the shorter time constant corrects it sooner.
  @Test func fastTurnsShortenTheLowPass() {
    var imu = Self.imu(seed: 45)
    imu.gyroScaleError = Vector3(0.01, -0.01, 0.005)
    imu.move(for: 3)
    let start = imu.samples.count
    imu.move(
      for: 60,
      omega: { t in Vector3(2.0 * sin(1.3 * t), 1.6 * cos(0.9 * t + 1), 1.0 * sin(0.4 * t)) })
    let (adaptive, fixed, tau) = Self.againstTheLawOff(imu, from: start)
    print(
      "fast turns, 1 % scale error: RMS \(adaptive)° adaptive, \(fixed)° fixed; "
        + "time constant at the end \(tau) s")
    #expect(tau < 2.8)
    #expect(adaptive < 0.97 * fixed)
  }

  /// A time constant named by the user (`--fusion-tau`) is the one the
  /// fusion keeps in motion: the law is off, a push does not lengthen it.
  @Test func aNamedTimeConstantIsFixed() {
    var imu = Self.imu(seed: 46)
    imu.move(for: 3)
    imu.move(
      for: 30, omega: Self.wobble,
      linear: { t in Vector3(0.15 * sin(2 * .pi * t / 5), 0, 0) })
    var named = FusionParameters()
    named.fixAccelerometerTimeConstant(2)
    #expect(named.accelerometerTimeConstant == 2 && named.gyroscopeScaleError == 0)
    var fixed = GyroAccelFusion(parameters: named)
    var adaptive = GyroAccelFusion()
    for s in imu.samples {
      _ = fixed.update(s)
      _ = adaptive.update(s)
    }
    #expect(fixed.trust == 1)
    #expect(1 / adaptive.trust > 1.3)
  }

  /// A fast shake (0.8 g at 2 Hz) with the same wobble: the 3 s low-pass
  /// removes it already, and the time constant stays near it. Not quite at
  /// it: the 1 s low-pass that keeps the slow part of the push passes 1.3 %
  /// of a 2 Hz shake, which the law counts as a slow push (measured: up to
  /// 1.16 × the time constant, 0.29° against 0.25° RMS here; on BROAD's fast
  /// translation, 15, the fusion is 0.995 × VQF). A slower filter would hide
  /// the slow pushes of BROAD 10 (1.13 × VQF with 2 s).
  @Test func fastShakeHardlyLengthens() {
    var imu = Self.imu(seed: 42)
    imu.move(for: 3)
    let start = imu.samples.count
    imu.move(
      for: 40, omega: Self.wobble,
      linear: { t in Vector3(0.8 * sin(2 * .pi * 2 * t), 0, 0) })
    var off = FusionParameters()
    off.gyroscopeScaleError = 0
    var fusion = GyroAccelFusion()
    var largest = 1.0
    for s in imu.samples {
      _ = fusion.update(s)
      largest = max(largest, 1 / fusion.trust)
    }
    let adaptive = Self.errors(FusionParameters(), imu, from: start)
    let fixed = Self.errors(off, imu, from: start)
    print("fast shake: RMS \(adaptive.rms)° vs \(fixed.rms)° fixed; largest stretch \(largest)")
    #expect(largest < 1.25)
    #expect(adaptive.rms < 1.2 * fixed.rms + 0.01)
  }

  /// 5 g knocks of 10 ms: weighed by their spike they move the inclination
  /// less than with all readings weighed alike; a fast push (1 g at 1 Hz,
  /// far from 1 g but smooth) keeps its weight, so its mean is not biased.
  @Test func knocksWeighLittleAndFastPushesKeepTheirWeight() {
    var unweighted = FusionParameters()
    unweighted.shockScale = .infinity

    let knocks = EstimatorTrajectoryTests.turnWithShocks(hasGyroscope: true)
    let knocked = Self.errors(FusionParameters(), knocks, from: 0)
    let knockedUnweighted = Self.errors(unweighted, knocks, from: 0)

    var imu = Self.imu(seed: 43)
    imu.move(for: 3)
    let start = imu.samples.count
    imu.move(
      for: 40, omega: Self.wobble,
      linear: { t in Vector3(0.7 * sin(2 * .pi * t), 0, 0.5 * sin(2 * .pi * t)) })
    let pushed = Self.errors(FusionParameters(), imu, from: start)
    let pushedUnweighted = Self.errors(unweighted, imu, from: start)
    print(
      "knocks: worst \(knocked.worst)° weighed, \(knockedUnweighted.worst)° not; "
        + "fast push: RMS \(pushed.rms)° weighed, \(pushedUnweighted.rms)° not")
    #expect(knocked.worst < 1.0)
    #expect(knocked.worst < 0.8 * knockedUnweighted.worst)
    #expect(pushed.rms < 1.1 * pushedUnweighted.rms + 0.01)
  }

  /// At rest, with an accelerometer as noisy as a game pad's (0.01 g, a
  /// quiet gyroscope): the inclination holds steadier than with the fast
  /// rest correction throughout, and a disturbance at rest still recovers
  /// as fast (within 0.5° in under 4 s), with or without the translation
  /// stretch.
  @Test func restCorrectionFollowsTheDisagreement() {
    var imu = Self.imu(seed: 44)
    imu.accelNoise = 0.01
    imu.gyroNoise = radians(0.02)
    imu.move(for: 30)
    let pushStart = imu.samples.count
    imu.move(for: 10, linear: { _ in Vector3(0.1, 0, 0) })
    let pushEnd = imu.samples.count
    imu.move(for: 8)
    var fastThroughout = FusionParameters()
    fastThroughout.restDisagreementScale = 0

    func measure(_ parameters: FusionParameters) -> (jitter: Double, recovery: Double?) {
      var fusion = GyroAccelFusion(parameters: parameters)
      var ups: [Vector3] = []
      var recovered: Double?
      for (i, (s, truth)) in zip(imu.samples, imu.truth).enumerated() {
        let q = fusion.update(s)!.orientation
        // Jitter: from 10 s into the first rest to its end.
        if i >= 10 * 200 && i < pushStart { ups.append(q.upVector) }
        if i >= pushEnd {
          if inclinationError(q, truth) < 0.5 {
            if recovered == nil { recovered = s.time - imu.samples[pushEnd].time }
          } else {
            recovered = nil
          }
        }
      }
      let mean = ups.reduce(Vector3.zero, +).normalized!
      let jitter =
        (ups.map { u in
          let a = atan2(u.cross(mean).length, u.dot(mean))
          return a * a
        }.reduce(0, +) / Double(ups.count)).squareRoot()
      return (degrees(jitter), recovered)
    }
    var noStretch = FusionParameters()
    noStretch.gyroscopeScaleError = 0
    let adaptive = measure(FusionParameters())
    let fast = measure(fastThroughout)
    let unstretched = measure(noStretch)
    print(
      "at rest: jitter \(adaptive.jitter)° (fast throughout \(fast.jitter)°); recovery "
        + "\(adaptive.recovery ?? .nan) s (fast throughout \(fast.recovery ?? .nan) s, "
        + "with a fixed time constant in motion \(unstretched.recovery ?? .nan) s)")
    #expect(adaptive.jitter < 0.8 * fast.jitter)
    #expect(adaptive.recovery != nil && adaptive.recovery! < 4)
    #expect(fast.recovery != nil && adaptive.recovery! < fast.recovery! + 0.5)
    #expect(unstretched.recovery != nil && adaptive.recovery! < unstretched.recovery! + 0.5)
  }

  /// The time constant's cube root (three Newton steps within 0.5…8,
  /// Foundation's beyond) over the range the bounds allow.
  @Test func cubeRootIsExactOverTheTimeConstantsRange() {
    for k in 0...1000 {
      let r = 0.05 + Double(k) / 100
      #expect(abs(GyroAccelFusion.cubeRoot(r) - cbrt(r)) < 1e-6, "r = \(r)")
    }
  }
}
