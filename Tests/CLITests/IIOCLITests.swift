import Foundation
import Glibc
import Testing

/// The IIO paths of the CLI on a fake sysfs tree (TILT_IIO_DIR, TILT_IIO_DEV_DIR):
/// an i2c accelerometer without a buffer, polled through `in_accel_*_raw`.
@Suite struct IIOCLITests {
  /// A sysfs tree with one polled accelerometer standing upright: gravity's
  /// direction is its −y (HID and hwdb convention), 1000 units of 9.80665e-3 m/s².
  static func polledTree() throws -> (root: String, env: [String]) {
    let root = NSTemporaryDirectory() + "tilt-iio-cli-\(UUID().uuidString)"
    let sensor = root + "/devices/platform/i2c-0/0-0018/iio:device0"
    try FileManager.default.createDirectory(atPath: sensor, withIntermediateDirectories: true)
    let files = [
      "name": "lis3dh", "in_accel_x_raw": "0", "in_accel_y_raw": "-1000", "in_accel_z_raw": "0",
      "in_accel_scale": "0.00980665", "sampling_frequency": "50",
    ]
    for (name, text) in files {
      try (text + "\n").write(toFile: sensor + "/" + name, atomically: false, encoding: .utf8)
    }
    for directory in ["bus", "dev", "input"] {
      try FileManager.default.createDirectory(
        atPath: root + "/" + directory, withIntermediateDirectories: true)
    }
    try FileManager.default.createSymbolicLink(
      atPath: root + "/bus/iio:device0", withDestinationPath: sensor)
    return (
      root,
      [
        "TILT_IIO_DIR=\(root)/bus", "TILT_IIO_DEV_DIR=\(root)/dev", "TILT_INPUT_DIR=\(root)/input",
        "XDG_STATE_HOME=\(root)/state",
      ]
    )
  }

  static func run(_ env: [String], _ arguments: [String]) throws -> TiltCLI.Result {
    try TiltCLI.runTool("/usr/bin/env", env + [TiltCLI.binary.path] + arguments)
  }

  @Test func devicesListsAPolledSensor() throws {
    let (root, env) = try Self.polledTree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let r = try Self.run(env, ["devices", "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
    let entry = try #require(entries.first)
    #expect(entry["path"] as? String == root + "/dev/iio:device0")
    #expect(entry["bus"] as? String == "iio")
    #expect(entry["kind"] as? String == "accelerometer")
    #expect(entry["buffer"] as? Bool == false)
    #expect(entry["samplingFrequency"] as? Double == 50)
  }

  @Test func recordPollsRawAndReplayGivesTheUprightCard() throws {
    let (root, env) = try Self.polledTree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let csv = root + "/upright.csv"
    let r = try Self.run(env, ["record", "--duration", "0.5", "-o", csv])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("polling") || r.stderr.contains("lis3dh"), "\(r.stderr)")
    let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
    #expect(rows.first == "t_s,acc_x_g,acc_y_g,acc_z_g")
    // 50 Hz for 0.5 s: about 25 polls; the loop's own time makes it fewer, not more.
    #expect(rows.count - 1 >= 15 && rows.count - 1 <= 27, "\(rows.count - 1) rows")
    let fields = rows[1].split(separator: ",").compactMap { Double($0) }
    #expect(fields.count == 4 && abs(fields[2] - 1) < 1e-9 && abs(fields[1]) < 1e-12)
    let replay = try TiltCLI.run(["replay", csv, "--every-sample", "--format", "jsonl"])
    #expect(replay.status == 0, "\(replay.stderr)")
    let last = try #require(replay.stdout.split(separator: "\n").last)
    let frame = try #require(
      try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
    let gravity = try #require(frame["gravity"] as? [Double])
    #expect(abs(gravity[1] + 1) < 1e-6, "upright: gravity \(gravity)")
  }

  @Test func anUnknownIIODeviceIsNamed() throws {
    let (root, env) = try Self.polledTree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let r = try Self.run(env, ["live", "--device", "/dev/iio:device7", "--format", "jsonl"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("/dev/iio:device7") && r.stderr.contains("tilt-cli devices"))
  }

  /// A polled IMU (an i2c accelerometer and gyroscope in one device, like an
  /// mpu6050 without a buffer) lying face up and still, its gyroscope reading
  /// a steady 5 deg/s about x: 500 units of 0.01 deg/s in rad/s.
  static func polledIMU(_ root: String) throws {
    let sensor = root + "/devices/platform/i2c-1/1-0068/iio:device1"
    try FileManager.default.createDirectory(atPath: sensor, withIntermediateDirectories: true)
    let files = [
      "name": "mpu6050", "in_accel_x_raw": "0", "in_accel_y_raw": "0", "in_accel_z_raw": "-1000",
      "in_accel_scale": "0.00980665", "in_anglvel_x_raw": "500", "in_anglvel_y_raw": "0",
      "in_anglvel_z_raw": "0", "in_anglvel_scale": "\(Double.pi / 180 / 100)",
      "sampling_frequency": "50",
    ]
    for (name, text) in files {
      try (text + "\n").write(toFile: sensor + "/" + name, atomically: false, encoding: .utf8)
    }
    try FileManager.default.removeItem(atPath: root + "/bus/iio:device0")
    try FileManager.default.createSymbolicLink(
      atPath: root + "/bus/iio:device1", withDestinationPath: sensor)
  }

  /// `calibrate` with no --device finds the IIO IMU, measures its bias and
  /// stores it where `live` on the same IMU finds it.
  @Test func calibrateMeasuresAnIIOIMUAndLiveStartsFromIt() throws {
    let (root, env) = try Self.polledTree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try Self.polledIMU(root)
    let r = try Self.run(env, ["calibrate", "--duration", "0.5", "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    let result = try #require(
      try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
    #expect(result["device"] as? String == root + "/dev/iio:device1")
    let bias = try #require(result["bias"] as? [Double])
    #expect(bias.count == 3 && abs(bias[0] - 5) < 1e-6 && abs(bias[1]) < 1e-9, "\(bias)")
    #expect((result["samples"] as? Int ?? 0) >= 5, "\(result)")
    #expect(result["large"] as? Bool == true)
    let stored = try FileManager.default.contentsOfDirectory(atPath: root + "/state/tilt")
    #expect(stored.count == 1, "\(stored)")
    // live on the same IMU, named by its node, starts from it (SIGINT after 1 s).
    let live = try TiltCLI.runTool(
      "/usr/bin/env",
      env + [
        "timeout", "--preserve-status", "-s", "INT", "1", TiltCLI.binary.path, "live", "--device",
        root + "/dev/iio:device1", "--format", "jsonl",
      ])
    #expect(live.status == 0, "\(live.stderr)")
    #expect(
      live.stderr.contains(
        "starting from the stored gyroscope bias (calibration): 5.0, 0.0, 0.0 deg/s"),
      "\(live.stderr)")
  }

  @Test func calibrateOfAnIIOAccelerometerSaysThereIsNothingToCalibrate() throws {
    let (root, env) = try Self.polledTree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let r = try Self.run(env, ["calibrate", "--device", "/dev/iio:device0", "--duration", "0.5"])
    #expect(r.status == 1)
    #expect(
      r.stderr.contains("/dev/iio:device0: \"lis3dh\" has no gyroscope: nothing to calibrate"),
      "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: root + "/state/tilt"))
  }

  /// `live --serve` on an IIO sensor: the page's `/state` says the device is
  /// closed until a viewer watches, then open; `/frames` carries the
  /// sensor's attitude (a polled lis3dh tilted to pitch 30°, absolute).
  @Test func liveServesAnIIOSensor() throws {
    let (root, env) = try Self.polledTree()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let sensor = root + "/bus/iio:device0"
    // Gravity's direction (HID and hwdb convention) for the up-vector (0, sin 30°, cos 30°).
    try "-500\n".write(toFile: sensor + "/in_accel_y_raw", atomically: false, encoding: .utf8)
    try "-866\n".write(toFile: sensor + "/in_accel_z_raw", atomically: false, encoding: .utf8)
    let process = Process()
    process.executableURL = TiltCLI.binary
    process.arguments = [
      "live", "--device", root + "/dev/iio:device0", "--serve", "127.0.0.1:0", "--format",
      "jsonl", "--reference", "none",
    ]
    var environment = ProcessInfo.processInfo.environment
    for assignment in env {
      let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
      environment[parts[0]] = parts[1]
    }
    process.environment = environment
    let err = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = err
    try process.run()
    defer {
      if process.isRunning {
        process.terminate()
        process.waitUntilExit()
      }
    }
    let port = try #require(
      ServeTests.servingPort(err.fileHandleForReading), "no 'serving' line on stderr")
    func state() -> [String: Any]? {
      let r = ServeTests.request("GET", "/state", port: port)
      return (try? JSONSerialization.jsonObject(with: Data(r.body.utf8))) as? [String: Any]
    }
    let idle = state()
    #expect(idle?["device"] as? String == "closed", "\(String(describing: idle))")
    let stream = try #require(EventStream(port: port))
    defer { stream.close() }
    // A card at rest is drawn once: the first frame after the viewer came.
    #expect(stream.wait(20) { $0.contains { $0.attitude != nil } }, "no frames")
    let watched = state()
    #expect(watched?["device"] as? String == "open", "\(String(describing: watched))")
    #expect(watched?["state"] as? String == "active", "\(String(describing: watched))")
    let attitude = try #require(stream.events.compactMap(\.attitude).last)
    let pitch = atan2(0.5, 0.866) * 180 / .pi
    #expect(abs(attitude.pitch - pitch) < 0.01 && abs(attitude.roll) < 0.01, "\(attitude)")
    stream.close()
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }

  /// `info --measure` of a buffered IIO sensor: its scans' rate by their
  /// `in_timestamp` (a fake hub's node holds 50 scans 10 ms apart).
  @Test func infoMeasuresABufferedSensorsRate() throws {
    let tree = try IIOPermissionTests.hubTree(named: "tilt-iio-measure", nodeMode: 0o644)
    defer { tree.remove() }
    let r = try TiltCLI.runTool(
      "/usr/bin/env",
      tree.env + [TiltCLI.binary.path, "info", tree.accel, "--measure", "0.3", "--json"])
    #expect(r.status == 0, "\(r.stderr)")
    let info = try #require(
      try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
    let measured = try #require(info["measured"] as? [String: Any], "\(info)")
    #expect(measured["scans"] as? Int == 50)
    #expect(abs((measured["rateHz"] as? Double ?? 0) - 100) < 1e-6, "\(measured)")
    #expect(measured["gaps"] as? Int == 0)
    #expect(tree.read(tree.accelSysfs + "/buffer/enable") == "0", "disabled again")
    let text = try TiltCLI.runTool(
      "/usr/bin/env", tree.env + [TiltCLI.binary.path, "info", tree.accel, "--measure", "0.3"])
    #expect(text.stdout.contains("rate: 100.0 Hz (measured over 0.3 s, 50 scans"), "\(text.stdout)")
  }
}
