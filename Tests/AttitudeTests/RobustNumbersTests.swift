import Foundation
import Testing

@testable import Attitude

/// Odd but real inputs: the attitude stays finite and recovers.
@Suite struct RobustNumbersTests {
  static let modes: [(FusionMode, Bool)] = [(.gyro, true), (.accel, false)]

  /// A manager fed 2 s of a card resting at 25° of pitch, with `odd` samples
  /// in the middle; returns every output and the inclination error at the end.
  static func run(
    mode: FusionMode, hasGyroscope: Bool, restAfter: Double = 4,
    odd: (Double) -> [MotionSample]
  ) -> (outputs: [DeviceMotion], finalError: Double) {
    let start = Attitude(pitch: radians(25), roll: 0, yaw: 0).quaternion
    var before = SyntheticIMU(rate: 100, start: start)
    before.move(for: 2, hasGyroscope: hasGyroscope)
    let oddSamples = odd(before.time)
    var after = SyntheticIMU(rate: 100, start: start)
    after.time = oddSamples.last.map { $0.time } ?? before.time
    after.move(for: restAfter, hasGyroscope: hasGyroscope)
    let manager = MotionManager(
      configuration: .init(fusion: mode, reference: .none), hasGyroscope: hasGyroscope)
    manager.startDeviceMotionUpdates { _ in }
    var outputs: [DeviceMotion] = []
    for s in before.samples + oddSamples + after.samples {
      if let m = manager.process(s) { outputs.append(m) }
    }
    let error = inclinationError(manager.deviceMotion!.attitude.quaternion, start)
    return (outputs, error)
  }

  static func allFinite(_ outputs: [DeviceMotion]) -> Bool {
    outputs.allSatisfy {
      $0.attitude.quaternion.isFinite && $0.gravity.isFinite && $0.userAcceleration.isFinite
    }
  }

  static func resting(at time: Double, _ acceleration: Vector3, gyro: Bool) -> MotionSample {
    MotionSample(time: time, acceleration: acceleration, rotationRate: gyro ? .zero : nil)
  }

  static let up25 = Vector3(0, sin(radians(25)), cos(radians(25)))

  @Test(arguments: modes)
  func burstOfSamplesWithOneTime(mode: FusionMode, hasGyroscope: Bool) {
    let (outputs, error) = Self.run(mode: mode, hasGyroscope: hasGyroscope) { t in
      (0..<3).map { _ in Self.resting(at: t + 0.01, Self.up25, gyro: hasGyroscope) }
    }
    #expect(Self.allFinite(outputs))
    #expect(error < 0.5)
  }

  @Test(arguments: modes)
  func samplesTenSecondsApartDoNotJump(mode: FusionMode, hasGyroscope: Bool) {
    // Ten seconds later the card lies at 25° still, but the gyroscope reads a
    // fast turn: integrating it over 10 s would be a wild guess.
    let (outputs, error) = Self.run(mode: mode, hasGyroscope: hasGyroscope) { t in
      [
        MotionSample(
          time: t + 10, acceleration: Self.up25, rotationRate: hasGyroscope ? Vector3(3, 0, 0) : nil
        )
      ]
    }
    #expect(Self.allFinite(outputs))
    #expect(error < 0.5)
    let gapIndex = 200
    // The sample after the gap is already at the right inclination.
    #expect(
      inclinationError(
        outputs[gapIndex].attitude.quaternion, outputs[gapIndex - 1].attitude.quaternion) < 2)
  }

  @Test(arguments: modes)
  func freeFallAndShockReadings(mode: FusionMode, hasGyroscope: Bool) {
    // 50 ms of 4 g sideways is a 2 m/s kick, which the fusion's 3 s
    // accelerometer filter needs a few seconds to forget.
    let (outputs, error) = Self.run(mode: mode, hasGyroscope: hasGyroscope, restAfter: 10) { t in
      (1...20).map { i in Self.resting(at: t + Double(i) * 0.01, .zero, gyro: hasGyroscope) }
        + (21...25).map { i in
          Self.resting(at: t + Double(i) * 0.01, Vector3(4, 0, 0), gyro: hasGyroscope)
        }
    }
    #expect(Self.allFinite(outputs))
    #expect(error < 0.5)
    let worst = outputs.map {
      inclinationError($0.attitude.quaternion, outputs[0].attitude.quaternion)
    }.max()!
    // The accelerometer alone cannot tell 50 ms of a 4 g push from a turn:
    // it follows a little of it, then recovers. The fusion tilts by about
    // 3.5° (3.55° measured), the kick's 2 m/s through its 3 s filter: the
    // knock weight's course is the last 20 ms block, so a kick that lasts
    // longer weighs as a push after its first block (3.02° with the 50 ms
    // low-passed course the weight had before issue 19's fourth session).
    #expect(worst < (mode == .accel ? 10 : 4))
  }

  @Test(arguments: modes)
  func nonFiniteSamplesAreRejectedAndChangeNothing(mode: FusionMode, hasGyroscope: Bool) {
    let bad: [MotionSample] = [
      MotionSample(time: .nan, acceleration: Self.up25),
      MotionSample(time: 2.005, acceleration: Vector3(.nan, 0, 1)),
      MotionSample(time: 2.005, acceleration: Self.up25, rotationRate: Vector3(0, .infinity, 0)),
    ]
    var imu = SyntheticIMU(
      rate: 100, start: Attitude(pitch: radians(25), roll: 0, yaw: 0).quaternion)
    imu.move(for: 4, hasGyroscope: hasGyroscope)
    func outputs(inserting: [MotionSample]) -> [DeviceMotion] {
      let manager = MotionManager(configuration: .init(fusion: mode), hasGyroscope: hasGyroscope)
      manager.startDeviceMotionUpdates { _ in }
      var out: [DeviceMotion] = []
      for (i, s) in imu.samples.enumerated() {
        if i == 200 { for b in inserting { #expect(manager.process(b) == nil) } }
        if let m = manager.process(s) { out.append(m) }
      }
      return out
    }
    #expect(outputs(inserting: bad) == outputs(inserting: []))
  }

  @Test(arguments: modes)
  func clockThatGoesBackwards(mode: FusionMode, hasGyroscope: Bool) {
    let (outputs, error) = Self.run(mode: mode, hasGyroscope: hasGyroscope) { _ in
      (0..<50).map { i in Self.resting(at: 0.5 + Double(i) * 0.01, Self.up25, gyro: hasGyroscope) }
    }
    #expect(Self.allFinite(outputs))
    #expect(error < 0.5)
  }
}
