import Foundation
import Testing

@testable import Attitude

/// A card seen by its accelerometer alone (no gyroscope, or `--fusion
/// accel`) that starts tilted and then tilts by (Δpitch, Δroll) must read
/// (Δpitch, Δroll) and yaw 0, the angles it would show had it started level
/// and only tilted (issue 12: a start at 35° pitch, +30° pitch, −20° roll
/// read 30.8°, −7.7°, yaw 8.5°).
@Suite struct TiltedStartTests {
  /// Rest at `start` (pitch, roll in degrees, yaw 0: Core Motion's
  /// R = Rz·Rx·Ry), a one-second tilt to `end`, rest. The angles are
  /// interpolated, so the path is a tilt, never a turn about the vertical.
  static func tilt(
    from start: (Double, Double), to end: (Double, Double), hasGyroscope: Bool,
    accelNoise: Double = 0.001
  ) -> [MotionSample] {
    var rng = SeededGenerator(seed: 11)
    var samples: [MotionSample] = []
    let rate = 100.0
    func attitude(_ f: Double) -> Quaternion {
      Attitude(
        pitch: radians(start.0 + (end.0 - start.0) * f),
        roll: radians(start.1 + (end.1 - start.1) * f), yaw: 0
      ).quaternion
    }
    var previous = attitude(0)
    for i in 0..<400 {
      let t = Double(i) / rate
      let f = min(max(t - 1, 0), 1)
      let q = attitude(f * f * (3 - 2 * f))
      let accel = q.conjugate.rotate(Vector3(0, 0, 1)) + rng.gaussianVector(accelNoise)
      // The rate that takes the previous orientation to this one (card frame).
      let gyro = (previous.conjugate * q).rotationVector * rate
      previous = q
      samples.append(
        MotionSample(time: t, acceleration: accel, rotationRate: hasGyroscope ? gyro : nil))
    }
    return samples
  }

  static func finalAttitude(
    _ samples: [MotionSample], fusion: FusionMode, hasGyroscope: Bool,
    reference: ReferenceMode = .start
  ) -> Attitude {
    let manager = MotionManager(
      configuration: .init(fusion: fusion, reference: reference), hasGyroscope: hasGyroscope)
    manager.startDeviceMotionUpdates { _ in }
    for s in samples { manager.process(s) }
    return manager.deviceMotion!.attitude
  }

  /// Starts in every direction (pitch −70…70°, roll −150…180°) and tilts in
  /// every direction. (The reference is the first reading: near ±90° pitch
  /// its roll is as noisy as the accelerometer's x and z over cos(pitch);
  /// ``uprightStartsAndEnds(pitch:)`` goes there without noise.)
  static let starts: [(Double, Double)] = [-70, -35, 0, 35, 60, 70].flatMap { p in
    [-150, -90, -30, 0, 45, 120, 180].map { r in (p, r) }
  }
  static let tilts: [(Double, Double)] = [(30, -20), (-25, 40), (0, -60), (5, 0)]

  @Test(arguments: [(FusionMode.auto, false), (.accel, false), (.accel, true)])
  func tiltFromAnyStartReadsTheChangeAndNoYaw(fusion: FusionMode, hasGyroscope: Bool) {
    var worst = 0.0
    for start in Self.starts {
      for tilt in Self.tilts {
        let end = (start.0 + tilt.0, start.1 + tilt.1)
        guard abs(end.0) < 89 else { continue }
        let samples = Self.tilt(from: start, to: end, hasGyroscope: hasGyroscope)
        let a = Self.finalAttitude(samples, fusion: fusion, hasGyroscope: hasGyroscope)
        let pitchError = abs(degrees(a.pitch) - tilt.0)
        let rollError = abs(remainder(degrees(a.roll) - tilt.1, 360))
        let yawError = abs(degrees(a.yaw))
        worst = max(worst, pitchError, rollError, yawError)
        #expect(
          pitchError < 0.3 && rollError < 0.3 && yawError < 0.3,
          "start \(start), tilt \(tilt): read pitch \(degrees(a.pitch)), roll \(degrees(a.roll)), yaw \(degrees(a.yaw))"
        )
      }
    }
    print("accelerometer only, tilted starts: worst angle error \(worst)°")
  }

  @Test func theIssuesExampleReadsThirtyMinusTwentyZero() {
    // Start at 35° pitch, then +30° pitch, then −20° roll.
    let samples = Self.tilt(from: (35, 0), to: (65, -20), hasGyroscope: false)
    let a = Self.finalAttitude(samples, fusion: .accel, hasGyroscope: false)
    #expect(abs(degrees(a.pitch) - 30) < 0.3)
    #expect(abs(degrees(a.roll) + 20) < 0.3)
    #expect(abs(degrees(a.yaw)) < 0.3)
    // Absolute: the tilt itself, and still no yaw.
    let absolute = Self.finalAttitude(
      samples, fusion: .accel, hasGyroscope: false, reference: .none)
    #expect(abs(degrees(absolute.pitch) - 65) < 0.3)
    #expect(abs(degrees(absolute.roll) + 20) < 0.3)
    #expect(abs(degrees(absolute.yaw)) < 0.3)
  }

  /// At ±90° pitch the accelerometer cannot see roll (Attitude reads it as 0
  /// there): from an upright start, a tilt reads its pitch change and the
  /// roll reached; a tilt up to ±90° reads its pitch change and no yaw.
  @Test(arguments: [90.0, -90.0])
  func uprightStartsAndEnds(pitch: Double) {
    let back = pitch > 0 ? -30.0 : 30.0
    for roll in [-40.0, 0, 25] {
      let samples = Self.tilt(
        from: (pitch, 0), to: (pitch + back, roll), hasGyroscope: false, accelNoise: 0)
      let a = Self.finalAttitude(samples, fusion: .auto, hasGyroscope: false)
      #expect(abs(degrees(a.pitch) - back) < 0.3, "from \(pitch)° pitch: \(degrees(a.pitch))")
      #expect(abs(degrees(a.roll) - roll) < 0.3, "from \(pitch)° pitch: roll \(degrees(a.roll))")
      #expect(abs(degrees(a.yaw)) < 0.3)
    }
    for start in [(pitch + back, 0.0), (pitch + back, 30), (pitch * 0.95, -60)] {
      let samples = Self.tilt(
        from: start, to: (pitch, start.1), hasGyroscope: false, accelNoise: 0)
      let a = Self.finalAttitude(samples, fusion: .auto, hasGyroscope: false)
      let change = pitch - start.0
      #expect(abs(degrees(a.pitch) - change) < 0.3, "to \(pitch)° pitch: \(degrees(a.pitch))")
      #expect(abs(degrees(a.yaw)) < 0.3)
    }
  }

  /// The orientation built from gravity alone is a function of the tilt:
  /// however the card got to a tilt, it reads the same, with no yaw.
  @Test func orientationFromGravityCarriesNoMadeUpYaw() {
    var a = AccelerometerTiltEstimator()
    var b = AccelerometerTiltEstimator()
    let direct = Self.tilt(from: (0, 0), to: (40, -30), hasGyroscope: false, accelNoise: 0)
    let roundabout =
      Self.tilt(from: (0, 0), to: (-50, 70), hasGyroscope: false, accelNoise: 0)
      + Self.tilt(from: (-50, 70), to: (40, -30), hasGyroscope: false, accelNoise: 0).map {
        MotionSample(time: $0.time + 4, acceleration: $0.acceleration)
      }
    let qa = run(&a, direct)!.orientation
    let qb = run(&b, roundabout)!.orientation
    #expect(qa.angle(to: qb) < radians(0.01))
    let attitude = Attitude(quaternion: qa)
    #expect(abs(degrees(attitude.pitch) - 40) < 0.01)
    #expect(abs(degrees(attitude.roll) + 30) < 0.01)
  }
}
