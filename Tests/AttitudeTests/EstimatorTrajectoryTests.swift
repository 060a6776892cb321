import Foundation
import Testing

@testable import Attitude

/// Synthetic motions with a known attitude, for each estimator.
@Suite struct EstimatorTrajectoryTests {
  /// Rest, a 90° turn about one card axis, rest; realistic bias and noise.
  static func singleAxisTurn(axis: Vector3, hasGyroscope: Bool, seed: UInt64) -> SyntheticIMU {
    var imu = SyntheticIMU(
      rate: 200, start: Attitude(pitch: 0.2, roll: -0.3, yaw: 1).quaternion, seed: seed,
      gyroBias: Vector3(radians(0.4), radians(-0.3), radians(0.2)), gyroNoise: radians(0.1),
      accelNoise: 0.002)
    imu.move(for: 4, hasGyroscope: hasGyroscope)
    imu.move(for: 2, omega: { _ in axis * radians(45) }, hasGyroscope: hasGyroscope)
    imu.move(for: 3, hasGyroscope: hasGyroscope)
    return imu
  }

  @Test(arguments: [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)])
  func fusionFollowsSingleAxisTurn(axis: Vector3) {
    let imu = Self.singleAxisTurn(axis: axis, hasGyroscope: true, seed: 7)
    var fusion = GyroAccelFusion()
    var worst = 0.0
    for (sample, truth) in zip(imu.samples, imu.truth) {
      let estimate = fusion.update(sample)!
      worst = max(worst, inclinationError(estimate.orientation, truth))
    }
    #expect(worst < 1.0)
    #expect(inclinationError(fusion.orientation, imu.truth.last!) < 0.3)
    #expect((fusion.bias - imu.gyroBias).length < radians(0.1))
  }

  @Test(arguments: [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)])
  func accelerometerFollowsSingleAxisTurn(axis: Vector3) {
    let imu = Self.singleAxisTurn(axis: axis, hasGyroscope: false, seed: 8)
    var tilt = AccelerometerTiltEstimator()
    var worst = 0.0
    for (sample, truth) in zip(imu.samples, imu.truth) {
      let estimate = tilt.update(sample)!
      #expect(estimate.rotationRate == nil)
      worst = max(worst, inclinationError(estimate.orientation, truth))
    }
    // Following a turn costs its rate times the time constant: at 45°/s the
    // classic low-pass (τ = 0.103 s) lags 4.4–4.6°; the adaptive estimator,
    // whose cutoff is 1 Hz plus 1 Hz per rad/s of turning, lags about as much
    // (4.5°; 5.2° with 0.5 Hz per rad/s, before the norm test).
    #expect(worst < 5.5)
    #expect(inclinationError(tilt.orientation, imu.truth.last!) < 0.5)
  }

  /// Turns about all three axes at once, with a changing rate.
  static func combinedTurns(hasGyroscope: Bool) -> SyntheticIMU {
    var imu = SyntheticIMU(
      rate: 250, seed: 11, gyroBias: Vector3(radians(0.5), radians(0.2), radians(-0.4)),
      gyroNoise: radians(0.1), accelNoise: 0.003)
    imu.move(for: 3, hasGyroscope: hasGyroscope)
    imu.move(
      for: 20,
      omega: { t in Vector3(1.2 * sin(1.3 * t), 0.9 * cos(0.7 * t), 0.6 * sin(0.4 * t + 1)) },
      hasGyroscope: hasGyroscope)
    return imu
  }

  @Test func fusionFollowsCombinedTurns() {
    let imu = Self.combinedTurns(hasGyroscope: true)
    var fusion = GyroAccelFusion()
    var worst = 0.0
    for (sample, truth) in zip(imu.samples, imu.truth) {
      worst = max(worst, inclinationError(fusion.update(sample)!.orientation, truth))
    }
    #expect(worst < 1.0)
  }

  @Test func accelerometerFollowsCombinedTurns() {
    let imu = Self.combinedTurns(hasGyroscope: false)
    var tilt = AccelerometerTiltEstimator()
    var worst = 0.0
    for (sample, truth) in zip(imu.samples, imu.truth) {
      worst = max(worst, inclinationError(tilt.update(sample)!.orientation, truth))
    }
    // Up to 1.6 rad/s: the classic low-pass would lag about 9.5°.
    #expect(worst < 8.5)
  }

  /// A slow turn with a 5 g, 10 ms knock every second, in changing directions.
  static func turnWithShocks(hasGyroscope: Bool) -> SyntheticIMU {
    var imu = SyntheticIMU(rate: 400, seed: 3, gyroNoise: radians(0.1), accelNoise: 0.002)
    imu.move(for: 3, hasGyroscope: hasGyroscope)
    imu.move(
      for: 10, omega: { _ in Vector3(0.2, -0.1, 0.3) },
      linear: { t in
        let phase = t - t.rounded(.down)
        guard phase < 0.01 else { return .zero }
        let k = t.rounded(.down)
        return Vector3(cos(k), sin(k), 0.3) * 5
      }, hasGyroscope: hasGyroscope)
    imu.move(for: 2, hasGyroscope: hasGyroscope)
    return imu
  }

  @Test func fusionIgnoresShocks() {
    let imu = Self.turnWithShocks(hasGyroscope: true)
    var fusion = GyroAccelFusion()
    var worst = 0.0
    for (sample, truth) in zip(imu.samples, imu.truth) {
      worst = max(worst, inclinationError(fusion.update(sample)!.orientation, truth))
    }
    #expect(worst < 1.0)
  }

  @Test func accelerometerRecoversFromShocks() {
    let imu = Self.turnWithShocks(hasGyroscope: false)
    var tilt = AccelerometerTiltEstimator()
    var worst = 0.0
    for (sample, truth) in zip(imu.samples, imu.truth) {
      worst = max(worst, inclinationError(tilt.update(sample)!.orientation, truth))
    }
    // A 5 g knock weighs a fifth (it jumps out of the norm's course) and
    // leaves the estimate within a few degrees.
    print("accelerometer only, turn with 5 g knocks: worst error \(worst)°")
    #expect(worst < 5.0)
    #expect(inclinationError(tilt.orientation, imu.truth.last!) < 0.5)
  }

  @Test func estimatesAreDeterministic() {
    let imu = Self.combinedTurns(hasGyroscope: true)
    var a = GyroAccelFusion()
    var b = GyroAccelFusion()
    #expect(imu.samples.map { a.update($0) } == imu.samples.map { b.update($0) })
    var c = AccelerometerTiltEstimator()
    var d = AccelerometerTiltEstimator()
    #expect(imu.samples.map { c.update($0) } == imu.samples.map { d.update($0) })
  }
}
