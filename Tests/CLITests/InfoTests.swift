import Foundation
import TestTools
import Testing

/// `tilt-cli info` and `devices` on what this machine has: recordings, and no /dev/input.
@Suite struct InfoTests {
  struct Expected: Sendable, CustomStringConvertible {
    var file: String
    var kind: String
    var accel: Double?
    var gyro: Double?
    var timestamps: String
    var description: String { file }
  }

  static let bundled: [Expected] = [
    Expected(
      file: "recordings/demo.evemu", kind: "imu", accel: 8192, gyro: 1024, timestamps: "msc")
  ]

  static let shared: [Expected] = [
    Expected(
      file: "../shared/data/broad/broad02_window36-56s_as_dualsense_motion.evemu", kind: "imu",
      accel: 8192, gyro: 1024, timestamps: "msc"),
    Expected(
      file: "../shared/data/broad/broad07_window22-42s_as_dualsense_motion.evemu", kind: "imu",
      accel: 8192, gyro: 1024, timestamps: "msc"),
    Expected(
      file: "../shared/data/recordings/mad-catz-xbox360-sticks.evemu", kind: "joystick",
      accel: nil, gyro: nil, timestamps: "event"),
    Expected(
      file: "../shared/data/recordings/sony-ps3-controller.desc", kind: "joystick", accel: nil,
      gyro: nil, timestamps: "event"),
    Expected(
      file: "../shared/data/recordings/nintendo-wiimote.desc", kind: "unsupported", accel: nil,
      gyro: nil, timestamps: "event"),
  ]

  @Test(arguments: bundled)
  func reportsKindResolutionsAndClock(expected: Expected) throws {
    try check(expected)
  }

  @Test(.needsSharedData(), arguments: shared)
  func reportsKindResolutionsAndClockOfSharedRecordings(expected: Expected) throws {
    try check(expected)
  }

  func check(_ expected: Expected) throws {
    let r = try TiltCLI.run(["info", expected.file, "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    let o = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
    #expect(o["kind"] as? String == expected.kind)
    #expect((o["accelResolution"] as? NSNumber)?.doubleValue == expected.accel)
    #expect((o["gyroResolution"] as? NSNumber)?.doubleValue == expected.gyro)
    #expect(o["timestamps"] as? String == expected.timestamps)
  }

  @Test(.needsSharedData()) func textReportOfABroadWindowMeasuresItsRate() throws {
    let r = try TiltCLI.run([
      "info", "../shared/data/broad/broad02_window36-56s_as_dualsense_motion.evemu",
    ])
    #expect(r.status == 0)
    #expect(r.stdout.contains("kind: imu\n"))
    #expect(r.stdout.contains("rate: 285.7 Hz"))
    #expect(r.stdout.contains("frames: 5714\n"))
  }

  @Test func aDirectoryIsAClearError() throws {
    let r = try TiltCLI.run(["info", "recordings"])
    #expect(r.status == 1)
    #expect(
      r.stderr
        == "tilt-cli info: recordings: is a directory; give a /dev/input/eventN node or a recording\n"
    )
  }

  @Test func devicesWithNoInputDirectorySaysSo() throws {
    let r = try TiltCLI.run(["devices"])
    #expect(r.status == 0)
    #expect(
      r.stdout
        == "/nonexistent-input-dir does not exist, so there are no input devices to list "
        + "(it comes from TILT_INPUT_DIR; unset it to list /dev/input).\n")
    let json = try TiltCLI.run(["devices", "--json"])
    #expect(json.stdout == "[]\n")
  }

  @Test func plainTiltCliPlaysTheDemoWithoutADevice() throws {
    let r = try TiltCLI.run(["--format", "jsonl", "--every-sample"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("no motion device found"))
    #expect(
      r.stderr.hasSuffix(
        "tilt-cli: the demo ended. With a motion device attached, 'tilt-cli' follows it live; 'tilt-cli replay FILE' plays a recording.\n"
      ))
    #expect(r.stdout.split(separator: "\n").count > 1000)
  }

  @Test func recordWithoutADeviceExplainsWhy() throws {
    let r = try TiltCLI.run(["record", "--duration", "1", "-o", "/tmp/never.evemu"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("no input devices in /nonexistent-input-dir"))
    #expect(!FileManager.default.fileExists(atPath: "/tmp/never.evemu"))
  }
}
