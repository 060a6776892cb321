import Foundation
import Testing

@testable import Attitude

@Suite struct MotionManagerTests {
  /// Rest, then a 20° turn about the card's x axis, then rest.
  static func pitchTwentyDegrees(start: Quaternion, hasGyroscope: Bool) -> SyntheticIMU {
    var imu = SyntheticIMU(
      rate: 100, start: start, seed: 5, gyroNoise: radians(0.05), accelNoise: 0.001)
    imu.move(for: 1, hasGyroscope: hasGyroscope)
    imu.move(for: 1, omega: { _ in Vector3(radians(20), 0, 0) }, hasGyroscope: hasGyroscope)
    imu.move(for: 3, hasGyroscope: hasGyroscope)
    return imu
  }

  @Test(arguments: [UInt64(1), 2, 3, 4])
  func fusionReadsTwentyDegreesOfPitchFromAnyStart(seed: UInt64) {
    var rng = SeededGenerator(seed: seed)
    let start = Attitude(
      pitch: Double.random(in: -1.2...1.2, using: &rng),
      roll: Double.random(in: -3...3, using: &rng), yaw: Double.random(in: -3...3, using: &rng))
    let imu = Self.pitchTwentyDegrees(start: start.quaternion, hasGyroscope: true)
    let manager = MotionManager(configuration: .init(filter: .none), hasGyroscope: true)
    var first: DeviceMotion?
    manager.startDeviceMotionUpdates { motion in first = first ?? motion }
    for s in imu.samples { manager.process(s) }
    #expect(first!.attitude.quaternion.angle(to: .identity) < 1e-12)
    let last = manager.deviceMotion!.attitude
    #expect(abs(degrees(last.pitch) - 20) < 0.5)
    #expect(abs(degrees(last.roll)) < 0.5)
    #expect(abs(degrees(last.yaw)) < 0.5)
  }

  @Test(arguments: [-60.0, 0, 35])
  func accelerometerReadsTwentyDegreesOfPitch(startPitch: Double) {
    // Without a gyroscope only inclination is seen: start with the x axis level.
    let start = Attitude(pitch: radians(startPitch), roll: 0, yaw: 2.0).quaternion
    let imu = Self.pitchTwentyDegrees(start: start, hasGyroscope: false)
    let manager = MotionManager(configuration: .init(filter: .none), hasGyroscope: false)
    #expect(!manager.usesFusion)
    manager.startDeviceMotionUpdates { _ in }
    for s in imu.samples { manager.process(s) }
    let last = manager.deviceMotion!
    #expect(abs(degrees(last.attitude.pitch) - 20) < 0.5)
    #expect(abs(degrees(last.attitude.roll)) < 0.5)
    #expect(last.rotationRate == nil)
  }

  @Test func absoluteReferenceReadsWorldAngles() {
    let start = Attitude(pitch: radians(10), roll: radians(-15), yaw: 0).quaternion
    let imu = Self.pitchTwentyDegrees(start: start, hasGyroscope: true)
    let manager = MotionManager(
      configuration: .init(filter: .none, reference: .none), hasGyroscope: true)
    manager.startDeviceMotionUpdates { _ in }
    for s in imu.samples { manager.process(s) }
    let truth = Attitude(quaternion: imu.truth.last!)
    let out = manager.deviceMotion!
    #expect(abs(degrees(out.attitude.pitch - truth.pitch)) < 0.5)
    #expect(abs(degrees(out.attitude.roll - truth.roll)) < 0.5)
    // Gravity points down in card coordinates, and matches the attitude.
    let expected = -imu.truth.last!.upVector
    #expect(out.gravity.isApproximatelyEqual(to: expected, tolerance: radians(0.5)))
    // At rest, nothing but gravity: no user acceleration to speak of.
    #expect(out.userAcceleration.length < 0.02)
  }

  @Test func recenterMakesTheNextOutputTheReference() {
    let imu = Self.pitchTwentyDegrees(start: .identity, hasGyroscope: true)
    let manager = MotionManager(configuration: .init(filter: .none), hasGyroscope: true)
    manager.startDeviceMotionUpdates { _ in }
    for s in imu.samples.prefix(300) { manager.process(s) }
    #expect(abs(degrees(manager.deviceMotion!.attitude.pitch) - 20) < 0.5)
    manager.recenter()
    let after = manager.process(imu.samples[300])!
    #expect(after.attitude.quaternion.angle(to: .identity) < 1e-12)
    for s in imu.samples.dropFirst(301) { manager.process(s) }
    #expect(abs(degrees(manager.deviceMotion!.attitude.pitch)) < 0.2)
  }

  @Test func stoppedManagerIgnoresSamplesAndRestartRetakesTheReference() {
    let imu = Self.pitchTwentyDegrees(start: .identity, hasGyroscope: true)
    let manager = MotionManager(hasGyroscope: true)
    #expect(manager.isDeviceMotionAvailable)
    #expect(manager.process(imu.samples[0]) == nil)
    manager.startDeviceMotionUpdates { _ in }
    #expect(manager.isDeviceMotionActive)
    for s in imu.samples.prefix(300) { manager.process(s) }
    manager.stopDeviceMotionUpdates()
    #expect(!manager.isDeviceMotionActive)
    #expect(manager.process(imu.samples[300]) == nil)
    manager.startDeviceMotionUpdates { _ in }
    let first = manager.process(imu.samples[301])!
    #expect(first.attitude.quaternion.angle(to: .identity) < 1e-12)
  }

  @Test func handlerIsCalledOncePerUpdateInterval() {
    var imu = SyntheticIMU(rate: 100)
    imu.move(for: 2)
    let manager = MotionManager(hasGyroscope: true)
    manager.deviceMotionUpdateInterval = 0.1
    var times: [Double] = []
    manager.startDeviceMotionUpdates { times.append($0.timestamp) }
    for s in imu.samples { manager.process(s) }
    #expect(times.count >= 19 && times.count <= 21)
    for (a, b) in zip(times, times.dropFirst()) { #expect(b - a >= 0.1 - 1e-9) }
    #expect(manager.deviceMotion!.timestamp == imu.samples.last!.time)
  }

  @Test func pullModeRunsTheSamplesToTheirEndOrUntilStopped() {
    var imu = SyntheticIMU(rate: 100)
    imu.move(for: 1)
    let manager = MotionManager(hasGyroscope: true)
    var count = 0
    let all = manager.startDeviceMotionUpdates(from: imu.samples) { _ in count += 1 }
    #expect(count == imu.samples.count && all == count)
    #expect(!manager.isDeviceMotionActive)

    count = 0
    let taken = manager.startDeviceMotionUpdates(from: imu.samples) { _ in
      count += 1
      if count == 10 { manager.stopDeviceMotionUpdates() }
    }
    #expect(count == 10)
    #expect(taken == 10)
  }

  @Test(arguments: [FusionMode.auto, .accel, .gyro])
  func sameSamplesGiveIdenticalOutputs(mode: FusionMode) {
    let imu = EstimatorTrajectoryTests.combinedTurns(hasGyroscope: true)
    func outputs() -> [DeviceMotion?] {
      let manager = MotionManager(configuration: .init(fusion: mode), hasGyroscope: true)
      manager.startDeviceMotionUpdates { _ in }
      return imu.samples.map { manager.process($0) }
    }
    #expect(outputs() == outputs())
  }

  @Test func gyroModeWithoutAGyroscopeIsUnavailableButRuns() {
    let manager = MotionManager(configuration: .init(fusion: .gyro), hasGyroscope: false)
    #expect(!manager.isDeviceMotionAvailable)
    #expect(manager.usesFusion)
    manager.startDeviceMotionUpdates { _ in }
    let out = manager.process(MotionSample(time: 0, acceleration: Vector3(0, 0, 1)))
    #expect(out?.rotationRate == nil)
  }

  @Test func stillGyroscopeWithBiasDoesNotDriftForTenMinutes() {
    var imu = SyntheticIMU(
      rate: 100, start: Attitude(pitch: 0.3, roll: 0.5, yaw: 0).quaternion, seed: 42,
      gyroBias: Vector3(radians(0.5), radians(-0.5), radians(0.5)), gyroNoise: radians(0.1),
      accelNoise: 0.002)
    imu.move(for: 600)
    let manager = MotionManager(hasGyroscope: true)
    manager.startDeviceMotionUpdates { _ in }
    var worst = 0.0
    for s in imu.samples {
      let angle = degrees(manager.process(s)!.attitude.quaternion.angle(to: .identity))
      worst = max(worst, angle)
    }
    // Until the first rest is confirmed (0.5 s) the bias turns the card by
    // up to 0.87°/s·0.5 s; then that stretch is integrated again with the
    // bias it revealed.
    print("still gyroscope, worst over 10 minutes: \(worst)°")
    #expect(worst < 0.5)
    #expect((manager.gyroscopeBias! - imu.gyroBias).length < radians(0.05))
  }
}
