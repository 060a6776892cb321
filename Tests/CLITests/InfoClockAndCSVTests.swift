import Evdev
import Foundation
import Testing

@testable import Tilt
@testable import tilt_cli

/// Synthetic recordings for `info` and `replay`.
enum SyntheticRecording {
  /// An IMU node no driver quirk knows (identity frame), 8192 units/g and
  /// 1024 units/(deg/s), with `MSC_TIMESTAMP`: 1 s at rest, a 60 deg/s turn
  /// about z for 100 samples (0.5 s by the event clock: 30°), 0.5 s at rest.
  /// Samples are sent 5 ms apart and stamped `mscStep` µs apart.
  static func turn(mscStep: Int) -> String {
    var lines = [
      "# EVEMU 1.3", "N: tilt test IMU", "I: 0003 1d6b 7a17 0001",
      "P: 40 00 00 00 00 00 00 00",
      "B: 00 1b 00 00 00 00 00 00 00",
      "B: 03 3f 00 00 00 00 00 00 00",
      "B: 04 20 00 00 00 00 00 00 00",
    ]
    for code in 0..<6 {
      lines.append("A: 0\(code) -2097152 2097152 0 0 \(code < 3 ? 8192 : 1024)")
    }
    for k in 0..<400 {
      let micros = 1_000_000 + k * 5000
      let time = String(format: "%d.%06d", micros / 1_000_000, micros % 1_000_000)
      let rate = (200..<300).contains(k) ? 60 * 1024 : 0
      lines.append("E: \(time) 0003 0002 8192")
      lines.append("E: \(time) 0003 0005 \(rate)")
      lines.append("E: \(time) 0004 0005 \(k * mscStep)")
      lines.append("E: \(time) 0000 0000 0")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func write(_ text: String, name: String) -> String {
    let dir = NSTemporaryDirectory() + "tilt-cli-tests-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let path = dir + "/" + name
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
  }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }
}

/// `info` on the clock of an `MSC_TIMESTAMP` device and on a CSV log.
@Suite struct InfoClockAndCSVTests {
  @Test func aSlowMscClockIsReportedAndTheEventClocksRateWins() throws {
    let path = SyntheticRecording.write(SyntheticRecording.turn(mscStep: 4667), name: "slow.evemu")
    let r = try TiltCLI.run(["info", path, "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    let o = try SyntheticRecording.json(r.stdout)
    #expect(o["timestamps"] as? String == "msc")
    #expect(o["eventClockRateWins"] as? Bool == true)
    let rate = try #require(o["timestampRate"] as? [String: Any])
    #expect(abs((rate["eventPerMsc"] as? Double ?? 0) - 5000.0 / 4667) < 1e-4)
    let text = try TiltCLI.run(["info", path])
    #expect(
      text.stdout.contains(
        "timestamp rate: MSC_TIMESTAMP runs 6.66 % slow ± 0.00 % against the event clock over 1.9 s,"
          + " more than their jitter explains: the event clock's rate wins"), "\(text.stdout)")
  }

  @Test func aRightMscClockIsSaidToAgree() throws {
    let path = SyntheticRecording.write(SyntheticRecording.turn(mscStep: 5000), name: "right.evemu")
    let o = try SyntheticRecording.json(try TiltCLI.run(["info", path, "--json"]).stdout)
    #expect(o["eventClockRateWins"] as? Bool == false)
    let text = try TiltCLI.run(["info", path])
    #expect(text.stdout.contains("MSC_TIMESTAMP agrees with the event clock (+0.00 %"))
  }

  /// The yaw after the turn, replayed through gyroscope fusion.
  static func replayedTurn(mscStep: Int) throws -> Double {
    let path = SyntheticRecording.write(
      SyntheticRecording.turn(mscStep: mscStep), name: "turn\(mscStep).evemu")
    let r = try TiltCLI.run([
      "replay", path, "--speed", "max", "--format", "jsonl", "--every-sample", "--fusion", "gyro",
      "--filter", "none",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let last = try #require(r.stdout.split(separator: "\n").last)
    let frame = try SyntheticRecording.json(String(last))
    let attitude = try #require(frame["attitude"] as? [String: Any])
    return try #require(attitude["yaw"] as? Double)
  }

  @Test func aThirtyDegreeTurnOnASlowMscClockReadsThirty() throws {
    let yaw = try Self.replayedTurn(mscStep: 4667)
    #expect(abs(abs(yaw) - 30) < 0.2, "yaw \(yaw)°, not 30° (28.0° timed by MSC_TIMESTAMP alone)")
    let right = try Self.replayedTurn(mscStep: 5000)
    #expect(abs(abs(right) - 30) < 0.2, "yaw \(right)°")
  }

  @Test func infoOnACSVLogSaysDurationRateUnitsGyroscopeAndGroundTruth() throws {
    var csv =
      "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_deg_s,gyr_y_deg_s,gyr_z_deg_s,opt_qw,opt_qx,opt_qy,opt_qz,movement\n"
    for k in 0..<200 {
      let truth = k < 50 ? "nan,nan,nan,nan" : "1,0,0,0"
      csv += String(format: "%.3f", Double(k) * 0.01) + ",0,0,1,0,0,0,\(truth),1\n"
    }
    let path = SyntheticRecording.write(csv, name: "log.csv")
    let r = try TiltCLI.run(["info", path, "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    let o = try SyntheticRecording.json(r.stdout)
    #expect(o["kind"] as? String == "imu")
    #expect(o["samples"] as? Int == 200)
    #expect(abs((o["durationSeconds"] as? Double ?? 0) - 1.99) < 1e-9)
    #expect(abs((o["rateHz"] as? Double ?? 0) - 100) < 1e-6)
    #expect(o["gyroscope"] as? Bool == true)
    let units = try #require(o["units"] as? [String: Any])
    #expect(units["accelerometer"] as? String == "g")
    #expect(units["gyroscope"] as? String == "deg/s")
    #expect(
      o["groundTruthColumns"] as? [String] == ["opt_qw", "opt_qx", "opt_qy", "opt_qz", "movement"])
    #expect(o["groundTruth"] as? Bool == true)
    #expect(o["groundTruthSamples"] as? Int == 150)
    let text = try TiltCLI.run(["info", path]).stdout
    #expect(text.contains("duration: 1.990 s\n"))
    #expect(text.contains("rate: 100.0 Hz (median step 10.000 ms)\n"))
    #expect(text.contains("units: t_s in s, accelerometer in g, gyroscope in deg/s\n"))
    #expect(text.contains("gyroscope: yes\n"))
    #expect(
      text.contains(
        "ground truth: opt_qw, opt_qx, opt_qy, opt_qz, movement (150 rows with an orientation)\n"))
  }

  @Test func aCSVLogWithoutGyroscopeOrTruthSaysSo() throws {
    let path = SyntheticRecording.write(
      "t_s,acc_x_m_s2,acc_y_m_s2,acc_z_m_s2\n0,0,0,9.8\n0.5,0,0,9.8\n", name: "accel.csv")
    let o = try SyntheticRecording.json(try TiltCLI.run(["info", path, "--json"]).stdout)
    #expect(o["kind"] as? String == "accelerometer")
    #expect(o["gyroscope"] as? Bool == false)
    #expect(o["groundTruthColumns"] as? [String] == [])
    let units = try #require(o["units"] as? [String: Any])
    #expect(units["accelerometer"] as? String == "m/s²")
    #expect(units["gyroscope"] is NSNull)
    let text = try TiltCLI.run(["info", path]).stdout
    #expect(text.contains("gyroscope: no\nground truth: none\n"), "\(text)")
  }
}

/// What `devices` says of nodes the kernel's HID drivers make.
@Suite struct DeviceListingTests {
  static func entry(_ path: String, _ info: DeviceInfo) -> DeviceListing.Entry {
    DeviceListing.Entry(
      device: DiscoveredDevice(path: path, info: info, openError: nil),
      profile: DeviceProfile.classify(info))
  }

  static func ds4Motion(driver: String) -> DeviceInfo {
    var abs: [UInt16: AbsInfo] = [:]
    for code: UInt16 in [0, 1, 2] {
      abs[code] = AbsInfo(minimum: -32768, maximum: 32768, fuzz: 16, resolution: 8192)
    }
    for code: UInt16 in [3, 4, 5] {
      abs[code] = AbsInfo(minimum: -2_097_152, maximum: 2_097_152, fuzz: 16, resolution: 1024)
    }
    return DeviceInfo(
      name: "Sony Interactive Entertainment Wireless Controller Motion Sensors",
      id: DeviceID(bustype: 3, vendor: 0x054c, product: 0x09cc, version: 0x8100),
      uniq: "a0:ab:51:00:00:01", phys: "usb-0000:00:14.0-2/input3",
      properties: [InputProperty.accelerometer],
      codes: [EventType.abs: [0, 1, 2, 3, 4, 5], EventType.msc: [MscCode.timestamp]],
      absInfo: abs, driver: driver)
  }

  @Test func aDualShock4OnHidSonyIsNotCalledHidPlaystation() {
    let listing = DeviceListing(
      entries: [Self.entry("/dev/input/event7", Self.ds4Motion(driver: "sony"))],
      directory: "/dev/input")
    let line = listing.table(describingErrors: LibraryErrorText.describe).split(separator: "\n")[1]
    #expect(line.contains("DualShock 4 motion node (hid-sony,"), "\(line)")
    #expect(!line.contains("hid-playstation"), "\(line)")
    #expect(
      listing.table(describingErrors: LibraryErrorText.describe).hasSuffix(
        "1 of 1 devices can drive the card.\n"))
  }

  @Test func pointersTouchscreensAndARightJoyConSayWhyNot() {
    let tablet = DeviceInfo(
      name: "QEMU QEMU USB Tablet",
      codes: [EventType.abs: [0, 1], EventType.key: [0x110, 0x111, 0x112], EventType.rel: [8]],
      absInfo: [0: AbsInfo(minimum: 0, maximum: 32767), 1: AbsInfo(minimum: 0, maximum: 32767)])
    let joyCon = DeviceInfo(
      name: "Nintendo Switch Right Joy-Con",
      id: DeviceID(bustype: 5, vendor: 0x057e, product: 0x2007, version: 0x8001),
      codes: [EventType.abs: [3, 4], EventType.key: [0x130, 0x131, 0x133, 0x134, 0x13b]],
      absInfo: [
        3: AbsInfo(minimum: -32767, maximum: 32767), 4: AbsInfo(minimum: -32767, maximum: 32767),
      ])
    let listing = DeviceListing(
      entries: [Self.entry("/dev/input/event3", tablet), Self.entry("/dev/input/event9", joyCon)],
      directory: "/dev/input")
    let table = listing.table(describingErrors: LibraryErrorText.describe)
    #expect(table.contains("an absolute pointer (udev: mouse; a VM's USB tablet or similar)"))
    #expect(table.contains("whose stick is on ABS_RX/ABS_RY, not ABS_X/ABS_Y"), "\(table)")
    #expect(!table.contains("no absolute axes"))
    #expect(table.hasSuffix("0 of 2 devices can drive the card.\n"))
    let json = listing.json(describingErrors: LibraryErrorText.describe).serialized()
    #expect(json.contains(#""udev":["ID_INPUT_MOUSE"]"#), "\(json)")
    #expect(json.contains(#""udev":["ID_INPUT_JOYSTICK"]"#), "\(json)")
  }
}
