import SensorData
import Foundation
import TestTools
import Testing

@testable import Attitude

/// The fusion's output, bit for bit, on the shared BROAD trials
/// (../shared/data/broad) and the bundled recordings: a golden for changes
/// that must not change a single number (issue 42's split of the fusion).
///
/// Each recording runs through four fusions: the defaults; sensor ranges
/// that clip the accelerometer and saturate the gyroscope; a stored bias
/// beyond ``FusionParameters/maximumBias`` (a seeded centre); a fixed time
/// constant without the knock weight. Every estimate's orientation and rate
/// and the bias, its variance, the rest flag and the time constant after
/// every sample go into an FNV-1a hash of their bit patterns. When the
/// fusion's output is meant to change, the new hashes are the test's
/// failure message.
@Suite struct FusionBitIdentityTests {
  /// Recorded on main at d3bd45e, before the split.
  static let expected: [String: String] = [
    "recordings/demo.evemu": "8b6a4917915029c1",  // 3000 samples
    "recordings/joystick-sweep.evemu": "ac3f43ec518c889b",  // 149 samples
    "recordings/roll-pitch.csv": "273788a0716b04e8",  // 301 samples
    "recordings/switch-pro-first-rest.evemu": "ca20723a8743ab90",  // 3365 samples
    "recordings/switch-pro-stale-calibration.evemu": "1564d2e10a53e9ff",  // 3399 samples
    "broad/broad02_window36-56s_as_dualsense_motion.evemu": "c0b76fac95fda916",  // 5714 samples
    "broad/broad02_window36-56s_groundtruth.csv": "db4404c16ca9fa7",  // 5714 samples
    "broad/broad07_window22-42s_as_dualsense_motion.evemu": "6d969367d159e59a",  // 5714 samples
    "broad/broad07_window22-42s_groundtruth.csv": "dc3cfdf316f198b3",  // 5714 samples
    "broad/broad_02_undisturbed_slow_rotation_B.csv": "51fc36d30075f6cd",  // 53240 samples
    "broad/broad_04_undisturbed_slow_rotation_with_breaks_A.csv": "c0617c5705da49f3",  // 60861 samples
    "broad/broad_07_undisturbed_fast_rotation_B.csv": "fd1b81cfc36a5f13",  // 52518 samples
    "broad/broad_08_undisturbed_fast_rotation_with_breaks_A.csv": "a19d693bcd85f9f7",  // 55358 samples
    "broad/broad_10_undisturbed_slow_translation_A.csv": "9bf093f2654da2a6",  // 55409 samples
    "broad/broad_15_undisturbed_fast_translation_A.csv": "ee7f118c063374fe",  // 52556 samples
    "broad/broad_21_undisturbed_fast_combined.csv": "43c9722ca7a37f74",  // 53612 samples
    "broad/broad_24_disturbed_tapping_A.csv": "58ad5a4c8a508dc1",  // 57746 samples
    "broad/broad_25_disturbed_tapping_B.csv": "cf3c798924d82a20",  // 56494 samples
    "broad/broad_26_disturbed_phone_vibration_A.csv": "ec189717dbd46f17",  // 57141 samples
    "broad/broad_28_disturbed_stationary_magnet_A.csv": "b56c2e7233406acc",  // 52628 samples
    "broad/broad_32_disturbed_attached_magnet_1cm.csv": "bc5f5ef3859b240d",  // 47639 samples
  ]

  static func variants() -> [(String, GyroAccelFusion)] {
    var ranges = FusionParameters()
    ranges.accelerometerRange = 1.6
    ranges.gyroscopeRange = 3
    var fixed = FusionParameters()
    fixed.fixAccelerometerTimeConstant(2)
    fixed.shockScale = .infinity
    let seed = GyroBiasEstimate(bias: Vector3(0.05, -0.01, 0.004), uncertainty: 0.002)
    return [
      ("defaults", GyroAccelFusion()),
      ("ranges", GyroAccelFusion(parameters: ranges)),
      ("seeded", GyroAccelFusion(initialBias: seed)),
      ("fixed", GyroAccelFusion(parameters: fixed)),
    ]
  }

  struct Hash {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ bits: UInt64) {
      for shift in stride(from: 0, to: 64, by: 8) {
        value = (value ^ (bits >> UInt64(shift) & 0xff)) &* 0x100_0000_01b3
      }
    }
    mutating func add(_ x: Double) { add(x.bitPattern) }
    mutating func add(_ v: Vector3) {
      add(v.x)
      add(v.y)
      add(v.z)
    }
  }

  static func hash(_ samples: [MotionSample]) -> String {
    var all = Hash()
    for (_, start) in variants() {
      var fusion = start
      for sample in samples {
        if let estimate = fusion.update(sample) {
          let q = estimate.orientation
          all.add(q.w)
          all.add(q.x)
          all.add(q.y)
          all.add(q.z)
          all.add(estimate.rotationRate ?? Vector3(.nan, .nan, .nan))
        } else {
          all.add(UInt64.max)
        }
        all.add(fusion.bias)
        all.add(fusion.biasVariance)
        all.add(fusion.motionTimeConstant)
        all.add(fusion.expectedBiasDrift)
        all.add(UInt64(fusion.isAtRest ? 1 : 0))
      }
      let e = fusion.biasEstimate
      all.add(e.uncertainty)
      all.add(UInt64(e.isConfirmedByRest ? 1 : 0))
    }
    return String(all.value, radix: 16)
  }

  static func csvSamples(_ path: String) throws -> [MotionSample] {
    let reader = try CSVMotionReader(path: path)
    var samples: [MotionSample] = []
    while let r = try reader.nextSample() {
      samples.append(
        MotionSample(
          time: r.time, acceleration: Vector3(r.acceleration.x, r.acceleration.y, r.acceleration.z),
          rotationRate: r.rotationRate.map { Vector3($0.x, $0.y, $0.z) }))
    }
    return samples
  }

  static func evemuSamples(_ path: String) throws -> [MotionSample] {
    let reader = try EvemuReader(path: path)
    var decoder = SampleDecoder(profile: .classify(reader.info))
    var samples: [MotionSample] = []
    while let frame = try reader.nextFrame() {
      guard let s = decoder.decode(frame), let a = s.acceleration else { continue }
      samples.append(
        MotionSample(
          time: s.time, acceleration: Vector3(a.x, a.y, a.z),
          rotationRate: s.rotationRate.map { Vector3($0.x, $0.y, $0.z) }))
    }
    return samples
  }

  /// The recordings by name: the package's own and, when present, BROAD's.
  static func recordings() throws -> [(String, URL)] {
    var found: [(String, URL)] = []
    let manager = FileManager.default
    let own = TestTools.packageRoot.appendingPathComponent("recordings")
    for name in try manager.contentsOfDirectory(atPath: own.path).sorted()
    where name.hasSuffix(".evemu") || name.hasSuffix(".csv") {
      found.append(("recordings/" + name, own.appendingPathComponent(name)))
    }
    if let broad = TestTools.sharedData("broad") {
      for name in try manager.contentsOfDirectory(atPath: broad.path).sorted()
      where name.hasSuffix(".evemu") || name.hasSuffix(".csv") {
        found.append(("broad/" + name, broad.appendingPathComponent(name)))
      }
    }
    return found
  }

  @Test(.needsSharedData("broad/broad_02_undisturbed_slow_rotation_B.csv"))
  func outputIsBitIdentical() throws {
    var lines: [String] = []
    var got: [String: String] = [:]
    for (name, url) in try Self.recordings() {
      let samples =
        name.hasSuffix(".csv") ? try Self.csvSamples(url.path) : try Self.evemuSamples(url.path)
      guard !samples.isEmpty else { continue }
      let h = Self.hash(samples)
      got[name] = h
      lines.append("    \"\(name)\": \"\(h)\",  // \(samples.count) samples")
    }
    #expect(got.count >= 14, "BROAD's twelve trials and the bundled recordings")
    #expect(got == Self.expected, "the fusion's output changed:\n\(lines.joined(separator: "\n"))")
  }
}
