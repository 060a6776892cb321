import Foundation
import TestTools
import Testing

@testable import SensorData

@Suite struct CSVMotionReaderTests {
  func all(_ reader: CSVMotionReader) throws(RecordingError) -> [MotionRecord] {
    var rows: [MotionRecord] = []
    while let row = try reader.nextSample() { rows.append(row) }
    return rows
  }

  @Test func metresPerSecondSquaredAndRadians() throws {
    let path = TestData.file(
      """
      t_s,gyr_x_rad_s,gyr_y_rad_s,gyr_z_rad_s,acc_x_m_s2,acc_y_m_s2,acc_z_m_s2,mag_x_uT
      10.5,0.1,0.2,0.3,0,0,9.80665,40
      10.51,0,0,-1,9.80665,0,0,40
      """, name: "log.csv")
    let reader = try CSVMotionReader(path: path)
    #expect(reader.hasGyroscope)
    #expect(!reader.hasGroundTruth)
    let rows = try all(reader)
    #expect(rows.count == 2)
    #expect(rows[0].time == 0)
    #expect(rows[0].acceleration == [0, 0, 1])
    #expect(rows[0].rotationRate == [0.1, 0.2, 0.3])
    #expect(abs(rows[1].time - 0.01) < 1e-12)
    #expect(rows[1].acceleration == [1, 0, 0])
    #expect(rows[1].movement == nil)
  }

  @Test func gAndDegreesWithColumnsInAnyOrder() throws {
    let path = TestData.file(
      """
      # a comment before the header
      acc_z_g, acc_y_g, acc_x_g, t_s, gyr_z_deg_s, gyr_y_deg_s, gyr_x_deg_s

      1, 0, 0.5, 0, 180, 0, -90
      """, name: "g.csv")
    let rows = try all(try CSVMotionReader(path: path))
    #expect(rows.count == 1)
    #expect(rows[0].acceleration == [0.5, 0, 1])
    #expect(rows[0].rotationRate == [-Double.pi / 2, 0, Double.pi])
  }

  @Test func gyroscopeIsOptional() throws {
    let path = TestData.file("t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n", name: "a.csv")
    let reader = try CSVMotionReader(path: path)
    #expect(!reader.hasGyroscope)
    #expect(try all(reader)[0].rotationRate == nil)
  }

  @Test func groundTruthAllowsNaN() throws {
    let path = TestData.file(
      "t_s,movement,opt_qw,opt_qx,opt_qy,opt_qz,acc_x_g,acc_y_g,acc_z_g\n0,1,nan,nan,nan,nan,0,0,1\n0.1,0,1,0,0,0,0,0,1\n",
      name: "t.csv")
    let reader = try CSVMotionReader(path: path)
    #expect(reader.hasGroundTruth)
    let rows = try all(reader)
    #expect(rows[0].groundTruth?.x.isNaN == true)
    #expect(rows[0].movement == 1)
    #expect(rows[1].groundTruth == [1, 0, 0, 0])
  }

  typealias Bad = BadInput

  static let bad: [Bad] = [
    Bad(name: "empty", text: "", kind: .empty, line: 0, message: "empty file; a CSV log needs t_s"),
    Bad(
      name: "no t_s", text: "time,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n", kind: .missingColumn,
      line: 1,
      message: "no t_s column; a CSV log needs t_s and acc_x_g… or acc_x_m_s2…"),
    Bad(
      name: "no accelerometer", text: "t_s,gyr_x_rad_s,gyr_y_rad_s,gyr_z_rad_s\n",
      kind: .missingColumn,
      line: 1, message: "no accelerometer columns"),
    Bad(
      name: "two of three axes", text: "t_s,acc_x_g,acc_y_g\n", kind: .missingColumn, line: 1,
      message: "no acc_z_g column"),
    Bad(
      name: "partial gyroscope", text: "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_deg_s\n",
      kind: .missingColumn,
      line: 1, message: "no gyr_y_deg_s column"),
    Bad(
      name: "short row", text: "t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,0,1\n0.1,0,0\n", kind: .truncated,
      line: 3, message: "short row: 3 fields, the header has 4"),
    Bad(
      name: "not a number", text: "t_s,acc_x_g,acc_y_g,acc_z_g\n0,zero,0,1\n", kind: .notANumber,
      line: 2,
      message: "'zero' in column acc_x_g is not a number"),
    Bad(
      name: "empty field", text: "t_s,acc_x_g,acc_y_g,acc_z_g\n0,,0,1\n", kind: .notANumber,
      line: 2,
      message: "'' in column acc_x_g is not a number"),
    Bad(
      name: "NaN accel", text: "t_s,acc_x_g,acc_y_g,acc_z_g\n0,0,nan,1\n", kind: .notFinite,
      line: 2,
      message: "acc_y_g is nan"),
    Bad(
      name: "Inf time", text: "t_s,acc_x_g,acc_y_g,acc_z_g\ninf,0,0,1\n", kind: .notFinite, line: 2,
      message: "t_s is inf"),
    Bad(
      name: "NaN gyro",
      text: "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_rad_s,gyr_y_rad_s,gyr_z_rad_s\n0,0,0,1,0,NaN,0\n",
      kind: .notFinite, line: 2, message: "gyr_y_rad_s is nan"),
    Bad(
      name: "time backwards", text: "t_s,acc_x_g,acc_y_g,acc_z_g\n1,0,0,1\n0.5,0,0,1\n",
      kind: .timeBackwards,
      line: 3, message: "t_s goes backwards (0.5 after 1.0)"),
  ]

  @Test(arguments: bad)
  func badLogsGiveClearErrors(_ c: Bad) throws {
    let path = TestData.file(c.text, name: "bad.csv")
    let error = #expect(throws: RecordingError.self) {
      let reader = try CSVMotionReader(path: path)
      while try reader.nextSample() != nil {}
    }
    #expect(error?.kind == c.kind)
    #expect(error?.line == c.line)
    #expect(error?.message.contains(c.message) == true, "\(error?.description ?? "nil")")
  }

  @Test func binaryFileIsRefused() throws {
    let path = TestData.file(bytes: [0x74, 0x5F, 0x73, 0x00, 0x0A], name: "bin.csv")
    let error = #expect(throws: RecordingError.self) { _ = try CSVMotionReader(path: path) }
    #expect(
      error?.description
        == "\(path):1: not a CSV log (binary data at line 1); \(RecordingError.giveARecording)")
  }

  @Test(
    .needsSharedData("broad"),
    arguments: [
      "broad/broad02_window36-56s_groundtruth.csv",
      "broad/broad_02_undisturbed_slow_rotation_B.csv",
    ])
  func readsBroadLogs(file: String) throws {
    let path = try TestData.path(file)
    let reader = try CSVMotionReader(path: path)
    #expect(reader.hasGyroscope)
    #expect(reader.hasGroundTruth)
    var count = 0
    var last: MotionRecord?
    while let row = try reader.nextSample() {
      let g = (row.acceleration * row.acceleration).sum().squareRoot()
      if g > 4 { Issue.record("implausible |a| = \(g) g at \(row.time) s") }
      count += 1
      last = row
    }
    // 285.714 Hz: one row every 3.5 ms.
    let rate = Double(count - 1) / (last?.time ?? 1)
    #expect(abs(rate - 285.714) < 0.1)
  }
}
