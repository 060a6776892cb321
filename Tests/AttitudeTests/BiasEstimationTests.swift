import Foundation
import Testing

@testable import Attitude

/// What the analysis of issue 12 found, on synthetic data with a known
/// bias: a bias learned in motion cannot run away, a rest far from the
/// current estimate is accepted, the inclination recovers within seconds at
/// rest, and a stored bias holds from the first second.
@Suite struct BiasEstimationTests {
  static let trueBias = Vector3(radians(0.4), radians(-0.6), radians(0.5))

  /// Turns about all three axes (up to ~60°/s), no linear acceleration.
  static func wander(_ t: Double) -> Vector3 {
    Vector3(0.8 * sin(0.9 * t), 0.7 * sin(0.6 * t + 1), 0.5 * cos(0.45 * t))
  }

  static func imu(seed: UInt64 = 21) -> SyntheticIMU {
    return SyntheticIMU(
      rate: 200, start: Attitude(pitch: 0.2, roll: -0.3, yaw: 1).quaternion, seed: seed,
      gyroBias: trueBias, gyroNoise: radians(0.1), accelNoise: 0.003)
  }

  static func biasError(_ fusion: GyroAccelFusion) -> Double {
    degrees((fusion.bias - trueBias).length)
  }

  /// Started 1.5°/s off on each axis (and believed to within 2°/s, as after
  /// a start), the bias is pulled back while the card turns: within 0.3°/s
  /// after 40 s of motion, and it stays there.
  @Test func wrongBiasWhileMovingIsPulledBack() {
    var imu = Self.imu()
    imu.move(for: 80, omega: Self.wander)
    var fusion = GyroAccelFusion(
      initialBias: GyroBiasEstimate(
        bias: Self.trueBias + Vector3(radians(1.5), radians(-1.5), radians(1.5)),
        uncertainty: radians(2)))
    var errors: [Double] = []
    for s in imu.samples {
      _ = fusion.update(s)
      errors.append(Self.biasError(fusion))
    }
    let after40 = errors[(40 * 200)...].max()!
    print(
      "bias 2.6°/s off at the start: \(errors[20 * 200 - 1])°/s after 20 s, at most \(after40)°/s after 40 s"
    )
    #expect(errors.first! > 2)
    #expect(after40 < 0.3)
    #expect(!fusion.biasEstimate.isConfirmedByRest)
  }

  /// A bias confirmed at rest, then two minutes of turning while a
  /// sustained sideways acceleration (0.15 g, turning slowly in the world,
  /// as on a merry-go-round) misleads the accelerometer: the estimate moves
  /// by less than 0.2°/s. (0.07°/s with the motion bias noise at 0.45°/s;
  /// 0.17°/s at 0.2°/s, which corrects a wrong bias in motion faster and
  /// was chosen on BROAD: no sensor tells this push from a tilt.)
  @Test func motionCannotRunTheBiasAway() {
    var imu = Self.imu(seed: 22)
    imu.move(for: 5)
    imu.move(
      for: 120, omega: Self.wander,
      linear: { t in Vector3(0.15 * cos(0.05 * t), 0.15 * sin(0.05 * t), 0) })
    var fusion = GyroAccelFusion()
    var worst = 0.0
    for (i, s) in imu.samples.enumerated() {
      _ = fusion.update(s)
      if i >= 5 * 200 { worst = max(worst, Self.biasError(fusion)) }
    }
    print("120 s of misleading motion after a rest: bias error at most \(worst)°/s")
    #expect(worst < 0.2)
  }

  /// The trial-21 lock-out: the estimate is far (1.5°/s) from the truth with
  /// a small variance when the card comes to rest. The rest is accepted,
  /// however far, and the bias is right 3.5 s into the rest (the short-term
  /// means settle, then one rest window of 1.5 s).
  @Test func restFarFromTheEstimateIsAccepted() {
    var imu = Self.imu(seed: 23)
    imu.move(for: 3)
    imu.move(for: 10, omega: Self.wander)
    let restStart = imu.samples.count
    imu.move(for: 5)
    var fusion = GyroAccelFusion()
    for (i, s) in imu.samples.enumerated() {
      if i == restStart - 1 {
        #expect(fusion.biasEstimate.isConfirmedByRest)
        // What misleading motion could have left: far off, and sure of it.
        fusion.bias = Self.trueBias + Vector3(0, radians(0.9), radians(-1.2))
      }
      _ = fusion.update(s)
      // The short-term means settle (~1.7 s after a fast turn), then one window.
      if i == restStart + 200 * 7 / 2 {
        #expect(Self.biasError(fusion) < 0.05, "\(Self.biasError(fusion))°/s 3.5 s into the rest")
      }
    }
    #expect(fusion.isAtRest)
    #expect(Self.biasError(fusion) < 0.05)
  }

  /// A known bias step: the gyroscope's bias changes by 0.8°/s while the
  /// card moves (a sensor warming up, a knock). At the next rest it
  /// contradicts both the estimate and the previous rest, but the
  /// accelerometer shows the card is not turning: the new bias is taken
  /// within one rest window, and the card stops drifting.
  @Test func biasStepIsTakenAtTheNextRest() {
    var imu = Self.imu(seed: 24)
    imu.move(for: 3)
    imu.move(for: 2, omega: Self.wander)
    imu.gyroBias = Self.trueBias + Vector3(radians(0.6), radians(-0.5), radians(0.2))
    imu.move(for: 1, omega: Self.wander)
    let restStart = imu.samples.count
    imu.move(for: 6)
    var fusion = GyroAccelFusion()
    var atFourSeconds = Quaternion.identity
    for (i, s) in imu.samples.enumerated() {
      let q = fusion.update(s)!.orientation
      if i == restStart + 200 * 4 { atFourSeconds = q }
    }
    // The heading (yaw) the card turns through over the last 2 s of rest.
    let turn = fusion.orientation * atFourSeconds.conjugate
    let drift = degrees(abs(2 * atan2(turn.z, turn.w)))
    let error = degrees((fusion.bias - imu.gyroBias).length)
    print(
      "bias step of 0.8°/s: bias error \(error)°/s at the end, yaw drift over the last 2 s \(drift)°"
    )
    #expect(error < 0.05)
    #expect(drift < 0.1)
  }

  /// A steady 1°/s turn about the vertical is the one thing no sensor can
  /// tell from a bias step: after a rest it is kept as a turn (see also
  /// SlowTurnTests); the bias does not follow it.
  @Test func steadyTurnAboutTheVerticalIsNotTakenForABiasStep() {
    var imu = Self.imu(seed: 25)
    imu.move(for: 4)
    // About the world's vertical: the up vector in the card frame, constant.
    let up = imu.orientation.upVector
    imu.move(for: 20, omega: { _ in up * radians(1) })
    var fusion = GyroAccelFusion()
    _ = run(&fusion, imu.samples)
    #expect(Self.biasError(fusion) < 0.1)
  }

  /// After a disturbance that left the inclination 5° wrong (a sustained
  /// 0.1 g push for 10 s while the gyroscope showed the card still: a
  /// car, a lift), the card rests: the inclination is within 0.5° of the
  /// truth 4 s after the push ends.
  @Test func inclinationRecoversWithinSecondsAtRest() {
    var imu = Self.imu(seed: 26)
    imu.move(for: 3)
    let pushStart = imu.samples.count
    imu.move(for: 10, linear: { _ in Vector3(0.1, 0, 0) })
    let pushEnd = imu.samples.count
    imu.move(for: 8)
    var fusion = GyroAccelFusion()
    var worstDuringPush = 0.0
    var recovered: Double?
    for (i, (s, truth)) in zip(imu.samples, imu.truth).enumerated() {
      let error = inclinationError(fusion.update(s)!.orientation, truth)
      if i >= pushStart && i < pushEnd { worstDuringPush = max(worstDuringPush, error) }
      if i >= pushEnd {
        if error < 0.5 {
          if recovered == nil { recovered = s.time - imu.samples[pushEnd].time }
        } else {
          recovered = nil
        }
      }
    }
    print(
      "push left \(worstDuringPush)° of inclination error; within 0.5° after \(recovered ?? .nan) s"
    )
    #expect(worstDuringPush > 3)
    #expect(recovered != nil && recovered! < 4)
  }

  /// A start that moves at once (no rest for 20 s) with a 0.9°/s bias: with
  /// the stored bias the card holds from its first second; without it, it
  /// drifts until the first rest, which then measures the bias.
  @Test func storedBiasHoldsFromTheFirstSecond() {
    var imu = Self.imu(seed: 27)
    imu.move(
      for: 20, omega: { t in Vector3(0.3 * sin(t), 0.2 * cos(0.7 * t), 0.25 * sin(0.5 * t)) })
    imu.move(for: 4)
    func headingError(_ fusion: inout GyroAccelFusion) -> (at20: Double, final: Double) {
      var offset: Quaternion?
      var at20 = 0.0
      var final = 0.0
      for (i, (s, truth)) in zip(imu.samples, imu.truth).enumerated() {
        let q = fusion.update(s)!.orientation
        // The world frames differ by the yaw of the first sample.
        if offset == nil { offset = truth * q.conjugate }
        let error = degrees((offset! * q).angle(to: truth))
        if i == 20 * 200 - 1 { at20 = error }
        final = error
      }
      return (at20, final)
    }
    let stored = GyroBiasEstimate(bias: Self.trueBias, uncertainty: radians(0.05))
    var seeded = GyroAccelFusion(initialBias: stored)
    var unseeded = GyroAccelFusion()
    let with = headingError(&seeded)
    let without = headingError(&unseeded)
    print(
      "20 s of motion from the start: \(with.at20)° off with the stored bias, \(without.at20)° without"
    )
    #expect(with.at20 < 0.5)
    #expect(without.at20 > 3)
    // The rest at the end measures the bias either way.
    #expect(Self.biasError(seeded) < 0.05)
    #expect(Self.biasError(unseeded) < 0.05)
    #expect(seeded.biasEstimate.isConfirmedByRest && unseeded.biasEstimate.isConfirmedByRest)
  }

  /// A stored bias that the first rest contradicts is replaced, not
  /// averaged with the rest's measurement.
  @Test func contradictedStoredBiasIsReplaced() {
    var imu = Self.imu(seed: 28)
    imu.move(for: 3)
    let wrong = GyroBiasEstimate(
      bias: Self.trueBias + Vector3(radians(-1), radians(0.8), 0), uncertainty: radians(0.03))
    let manager = MotionManager(hasGyroscope: true)
    manager.seedGyroscopeBias(wrong)
    #expect(manager.gyroscopeBiasEstimate!.bias == wrong.bias)
    #expect(!manager.gyroscopeBiasEstimate!.isConfirmedByRest)
    manager.startDeviceMotionUpdates { _ in }
    for s in imu.samples { manager.process(s) }
    let estimate = manager.gyroscopeBiasEstimate!
    #expect(estimate.isConfirmedByRest)
    #expect(degrees((estimate.bias - Self.trueBias).length) < 0.05)
    #expect(degrees(estimate.uncertainty.x) < 0.1)
  }

  /// A stored bias that the first rest agrees with is refined by it.
  @Test func agreeingStoredBiasIsRefined() {
    var imu = Self.imu(seed: 29)
    imu.move(for: 3)
    var fusion = GyroAccelFusion(
      initialBias: GyroBiasEstimate(
        bias: Self.trueBias + Vector3(radians(0.05), 0, 0), uncertainty: radians(0.2)))
    _ = run(&fusion, imu.samples)
    #expect(fusion.biasEstimate.isConfirmedByRest)
    #expect(Self.biasError(fusion) < 0.03)
    #expect(degrees(fusion.biasEstimate.uncertainty.x) < 0.05)
  }
}

@Suite struct GyroBiasCalibrationTests {
  @Test func stillCardGivesItsBiasAndUncertainty() {
    var imu = SyntheticIMU(
      rate: 250, start: Attitude(pitch: 0.3, roll: 0.1, yaw: 0).quaternion, seed: 31,
      gyroBias: Vector3(radians(0.7), radians(-0.2), radians(1.1)), gyroNoise: radians(0.1),
      accelNoise: 0.002)
    imu.move(for: 5)
    var calibration = GyroBiasCalibration()
    #expect(calibration.estimate == nil)
    for s in imu.samples { calibration.add(s) }
    #expect(calibration.sampleCount == imu.samples.count)
    #expect(abs(calibration.duration - 5) < 0.01)
    #expect(!calibration.hasMoved)
    let estimate = calibration.estimate!
    #expect(degrees((estimate.bias - imu.gyroBias).length) < 0.02)
    // 0.1°/s noise over 1250 samples: 0.003°/s, but never below 0.05°/s/√5 s.
    #expect(abs(degrees(estimate.uncertainty.y) - 0.05 / 5.0.squareRoot()) < 0.002)
    #expect(estimate.isConfirmedByRest)
  }

  @Test func movingCardIsDetected() {
    var imu = SyntheticIMU(rate: 250)
    imu.gyroBias = Vector3(radians(0.5), 0, 0)
    imu.move(for: 2)
    imu.move(for: 0.3, omega: { _ in Vector3(0, radians(10), 0) })
    var calibration = GyroBiasCalibration()
    for s in imu.samples.prefix(500) { calibration.add(s) }
    #expect(!calibration.hasMoved)
    for s in imu.samples.dropFirst(500) { calibration.add(s) }
    #expect(calibration.hasMoved)
    #expect(calibration.estimate == nil)
  }

  @Test func samplesWithoutAGyroscopeAreNotTaken() {
    var calibration = GyroBiasCalibration()
    let withoutGyroscope = calibration.add(MotionSample(time: 0, acceleration: Vector3(0, 0, 1)))
    let nonFinite = calibration.add(
      MotionSample(time: 0, acceleration: Vector3(0, 0, 1), rotationRate: Vector3(.nan, 0, 0)))
    #expect(!withoutGyroscope && !nonFinite)
    #expect(calibration.sampleCount == 0 && calibration.bias == nil)
  }

  @Test func aSteadyTurnIsNotABias() {
    // About a horizontal axis: the accelerometer sees the tilt. A steady
    // turn about the vertical reads as a bias (issue 19: motion is
    // variation, not size; LargeGyroBiasTests).
    var imu = SyntheticIMU(rate: 100)
    imu.move(for: 3, omega: { _ in Vector3(radians(3), 0, 0) })
    var calibration = GyroBiasCalibration()
    for s in imu.samples { calibration.add(s) }
    #expect(calibration.hasMoved)
  }
}

/// The fusion's time constant can be set as short as 10 ms (`--fusion-tau`):
/// shorter than a correction block, the low-pass passes readings through
/// and stays finite.
@Suite struct ShortTimeConstantTests {
  @Test(arguments: [0.01, 0.05, 0.3])
  func shortAccelerometerTimeConstantStaysFiniteAndRight(tau: Double) {
    var imu = BiasEstimationTests.imu(seed: 41)
    imu.move(for: 2)
    imu.move(for: 3, omega: BiasEstimationTests.wander)
    imu.move(for: 2)
    var p = FusionParameters()
    p.accelerometerTimeConstant = tau
    var fusion = GyroAccelFusion(parameters: p)
    for s in imu.samples {
      let q = fusion.update(s)!.orientation
      #expect(q.w.isFinite && q.x.isFinite && q.y.isFinite && q.z.isFinite)
    }
    #expect(inclinationError(fusion.orientation, imu.truth.last!) < 1)
  }
}
