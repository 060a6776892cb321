import Attitude
import SensorData
import Foundation
import Testing
import Tilt

/// Issue 19: `calibrate` stores a large bias and the next `live` start takes
/// it: the calibration, the store's file and the motion manager's seed, as
/// `tilt-cli calibrate` and `TiltMotionManager` chain them.
@Suite struct CalibratedStartTests {
  /// A still card (pitch 10°) at 250 Hz whose gyroscope reads `bias` °/s,
  /// with 0.1 °/s of noise (seeded; a uniform noise of that deviation).
  static func still(seconds: Double, bias: Vector3, seed: UInt64) -> [MotionSample] {
    var state = seed
    func noise(_ sigma: Double) -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (Double(state >> 11) / Double(1 << 53) - 0.5) * sigma * 12.0.squareRoot()
    }
    let up = Vector3(0, sin(10 * Double.pi / 180), cos(10 * Double.pi / 180))
    let rate = bias * (.pi / 180)
    let sigma = 0.1 * Double.pi / 180
    return (0..<Int(seconds * 250)).map { k in
      MotionSample(
        time: Double(k) / 250,
        acceleration: up + Vector3(noise(0.002), noise(0.002), noise(0.002)),
        rotationRate: rate + Vector3(noise(sigma), noise(sigma), noise(sigma)))
    }
  }

  @Test func aFiveDegreePerSecondBiasIsStoredAndTheNextStartDoesNotDrift() throws {
    let bias = Vector3(5, 0, 0)
    var calibration = GyroBiasCalibration()
    for sample in Self.still(seconds: 3, bias: bias, seed: 5) { calibration.add(sample) }
    let estimate = try #require(calibration.estimate, "the still device counted as moved")
    #expect(calibration.isLarge)
    let directory = NSTemporaryDirectory() + "tilt-calibrated-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = GyroBiasStore(directory: directory)
    let device = DeviceInfo(
      name: "Test Pad Motion Sensors",
      id: DeviceID(bustype: 3, vendor: 0x054c, product: 0x0ce6, version: 1),
      uniq: "a0:ab:51:00:00:05")
    try store.save(
      StoredGyroBias(estimate, samples: calibration.sampleCount, origin: .calibration), for: device)
    let stored = try #require(try store.load(for: device))
    let measured = stored.biasDegreesPerSecond
    #expect((measured - bias).length < 0.05, "stored \(measured) °/s, the bias is \(bias)")

    let manager = MotionManager(hasGyroscope: true)
    manager.seedGyroscopeBias(stored.estimate)
    manager.startDeviceMotionUpdates { _ in }
    var first: Quaternion?
    var worst = 0.0
    for sample in Self.still(seconds: 2, bias: bias, seed: 99) {
      guard let motion = manager.process(sample) else { continue }
      let q = motion.attitude.quaternion
      if first == nil { first = q }
      worst = max(worst, q.angle(to: first!) * 180 / .pi)
    }
    print("stored \(measured) °/s for a 5 °/s bias; the next start: \(worst)° over 2 s at rest")
    #expect(worst < 0.25, "drifted \(worst)° over the first 2 s at rest")
  }
}
