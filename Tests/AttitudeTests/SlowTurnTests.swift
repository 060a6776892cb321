import Foundation
import Testing

@testable import Attitude

/// Turns too slow and steady for the accelerometer or the rest detector to
/// tell apart from a still card with a biased gyroscope: the fusion must
/// still integrate them.
@Suite struct SlowTurnTests {
  /// A flat card at rest for 5 s, a 1°/s turn about z for 60 s, a 20° tilt
  /// about x in 2 s, then rest; realistic bias and noise.
  static func slowYawThenTilt() -> SyntheticIMU {
    var imu = SyntheticIMU(
      rate: 100, start: Attitude(pitch: 0, roll: 0, yaw: 1).quaternion, seed: 5,
      gyroBias: Vector3(radians(0.3), radians(-0.4), radians(0.5)), gyroNoise: radians(0.1),
      accelNoise: 0.002)
    imu.move(for: 5)
    imu.move(for: 60, omega: { _ in Vector3(0, 0, radians(1)) })
    imu.move(for: 2, omega: { _ in Vector3(radians(10), 0, 0) })
    imu.move(for: 3)
    return imu
  }

  @Test func oneDegreePerSecondYawIsKeptAndTheTiltLandsOnPitch() {
    let imu = Self.slowYawThenTilt()
    let manager = MotionManager(hasGyroscope: true)
    var last: DeviceMotion?
    manager.startDeviceMotionUpdates { last = $0 }
    for s in imu.samples { manager.process(s) }
    let attitude = last!.attitude
    print(
      "1°/s yaw for 60 s, then 20° about x: yaw \(degrees(attitude.yaw))°, "
        + "pitch \(degrees(attitude.pitch))°, roll \(degrees(attitude.roll))°")
    #expect(abs(degrees(attitude.yaw) - 60) < 1)
    #expect(abs(degrees(attitude.pitch) - 20) < 0.5)
    #expect(abs(degrees(attitude.roll)) < 0.5)
    // The turn did not pass for bias.
    #expect((manager.gyroscopeBias! - imu.gyroBias).length < radians(0.1))
  }

  @Test func slowYawIsFollowedAllAlong() {
    let imu = Self.slowYawThenTilt()
    var fusion = GyroAccelFusion()
    var offset: Quaternion?
    var worst = 0.0
    for (sample, truth) in zip(imu.samples, imu.truth) {
      let estimate = fusion.update(sample)!.orientation
      // The estimate's world frame differs from the truth's by a fixed yaw.
      if offset == nil { offset = truth * estimate.conjugate }
      worst = max(worst, degrees((offset! * estimate).angle(to: truth)))
    }
    #expect(worst < 1)
  }

  /// A slow steady tilt, where the accelerometer sees the turn too.
  @Test func halfDegreePerSecondTiltIsFollowed() {
    var imu = SyntheticIMU(
      rate: 200, seed: 9, gyroBias: Vector3(radians(-0.5), radians(0.2), radians(0.4)),
      gyroNoise: radians(0.1), accelNoise: 0.002)
    imu.move(for: 4)
    imu.move(for: 40, omega: { _ in Vector3(radians(0.5), 0, 0) })
    var fusion = GyroAccelFusion()
    var worst = 0.0
    for (sample, truth) in zip(imu.samples, imu.truth) {
      worst = max(worst, inclinationError(fusion.update(sample)!.orientation, truth))
    }
    #expect(worst < 0.5)
    #expect((fusion.bias - imu.gyroBias).length < radians(0.1))
  }
}
