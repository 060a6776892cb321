import Foundation
import TestTools
import Testing

@testable import Attitude

/// A behaviour check on real data (BROAD trial 02, ../shared/data/broad);
/// the figures themselves come from scripts/bench-attitude.
@Suite struct BroadDataTests {
  static let trial = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("../shared/data/broad/broad_02_undisturbed_slow_rotation_B.csv")
    .standardizedFileURL

  struct Row {
    var sample: MotionSample
    var trueOrientation: Quaternion?
    var scored: Bool
  }

  /// The first `seconds` of the trial.
  static func rows(seconds: Double) throws -> [Row] {
    let text = try String(contentsOf: trial, encoding: .utf8)
    var lines = text.split(separator: "\n")[...]
    let names = lines.removeFirst().split(separator: ",").map(String.init)
    func index(_ n: String) -> Int { names.firstIndex(of: n)! }
    let columns = [
      "t_s", "acc_x_m_s2", "acc_y_m_s2", "acc_z_m_s2", "gyr_x_rad_s", "gyr_y_rad_s",
      "gyr_z_rad_s", "movement", "opt_qw", "opt_qx", "opt_qy", "opt_qz",
    ].map(index)
    var rows: [Row] = []
    for line in lines {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      let v = columns.map { Double(fields[$0]) ?? .nan }
      if v[0] > seconds { break }
      let g = 9.80665
      let truth = Quaternion(w: v[8], x: v[9], y: v[10], z: v[11])
      rows.append(
        Row(
          sample: MotionSample(
            time: v[0], acceleration: Vector3(v[1] / g, v[2] / g, v[3] / g),
            rotationRate: Vector3(v[4], v[5], v[6])),
          trueOrientation: truth.isFinite ? truth : nil, scored: v[7] == 1))
    }
    return rows
  }

  static func rmse(_ rows: [Row], _ estimate: (MotionSample) -> Quaternion) -> Double {
    var sum = 0.0
    var n = 0
    for row in rows {
      let q = estimate(row.sample)
      guard row.scored, let truth = row.trueOrientation else { continue }
      sum += pow(inclinationError(q, truth), 2)
      n += 1
    }
    return (sum / Double(n)).squareRoot()
  }

  @Test(.needsSharedData("broad/broad_02_undisturbed_slow_rotation_B.csv"))
  func fusionOnSlowRotationIsFarBetterThanTheLowPass() throws {
    let rows = try Self.rows(seconds: 100)
    var fusion = GyroAccelFusion()
    let fusionError = Self.rmse(rows) { fusion.update($0)!.orientation }
    var tilt = AccelerometerTiltEstimator()
    let tiltError = Self.rmse(rows) { tilt.update($0)!.orientation }
    var lowPass = Vector3(0, 0, 1)
    var last = 0.0
    let lowPassError = Self.rmse(rows) { s in
      lowPass += (1 - exp(-(s.time - last) / 0.103)) * (s.acceleration - lowPass)
      last = s.time
      return Quaternion(rotating: lowPass.normalized!, onto: Vector3(0, 0, 1))
    }
    // Trial 02 in full: low-pass 8.1°, VQF 0.43°.
    #expect(lowPassError > 5)
    #expect(fusionError < 1.0)
    #expect(tiltError < lowPassError)
  }

  /// A recorded start with a known bias: trial 02 rests for its first 30 s,
  /// which `GyroBiasCalibration` measures; a fusion started at 40 s, while
  /// the card turns, holds its heading from the first second when seeded
  /// with that bias, and drifts without it (the IMU's bias is ~0.1°/s; 1°/s
  /// more is added to make the drift plain).
  @Test(.needsSharedData("broad/broad_02_undisturbed_slow_rotation_B.csv"))
  func storedBiasHoldsARecordedStart() throws {
    let extra = Vector3(radians(0.6), radians(-0.5), radians(0.6))
    let rows = try Self.rows(seconds: 52).map { row -> Row in
      var r = row
      r.sample.rotationRate = r.sample.rotationRate! + extra
      return r
    }
    var calibration = GyroBiasCalibration()
    for row in rows where row.sample.time >= 2 && row.sample.time < 28 {
      calibration.add(row.sample)
    }
    let stored = try #require(calibration.estimate)
    let moving = rows.filter { $0.sample.time >= 40 }
    func worstHeadingError(_ fusion: inout GyroAccelFusion) -> Double {
      var offset: Quaternion?
      var worst = 0.0
      for row in moving {
        let q = fusion.update(row.sample)!.orientation
        guard let truth = row.trueOrientation?.normalized else { continue }
        if offset == nil { offset = truth * q.conjugate }
        if row.sample.time > 41 { worst = max(worst, degrees((offset! * q).angle(to: truth))) }
      }
      return worst
    }
    var seeded = GyroAccelFusion(initialBias: stored)
    var unseeded = GyroAccelFusion()
    let with = worstHeadingError(&seeded)
    let without = worstHeadingError(&unseeded)
    print(
      "trial 02 from 40 s, 12 s: worst attitude error \(with)° with the stored bias, \(without)° without"
    )
    #expect(with < 2)
    #expect(without - with > 1)
  }
}
