import Attitude
import Foundation
import IIO
import Testing
import Tilt

/// The IIO live source on a fake sysfs tree: a HID hub's accelerometer whose
/// node is a file of crafted scans.
@Suite struct IIOCardTests {
  final class Tree {
    let root = NSTemporaryDirectory() + "tilt-iio-manager-\(UUID().uuidString)"
    var devices: String { root + "/bus" }
    var nodes: String { root + "/dev" }
    var sensor: String {
      root + "/devices/0003:1209:7117.0001/HID-SENSOR-200073.1.auto/iio:device0"
    }

    init() throws {
      var files: [String: String] = [
        "name": "accel_3d", "in_accel_scale": "0.00980665", "in_accel_offset": "0",
        "buffer/enable": "0", "buffer/length": "128", "trigger/current_trigger": "accel_3d-dev0",
        "scan_elements/in_timestamp_en": "0", "scan_elements/in_timestamp_index": "3",
        "scan_elements/in_timestamp_type": "le:s64/64>>0",
      ]
      for (i, axis) in ["x", "y", "z"].enumerated() {
        files["in_accel_\(axis)_raw"] = "0"
        files["scan_elements/in_accel_\(axis)_en"] = "0"
        files["scan_elements/in_accel_\(axis)_index"] = "\(i)"
        files["scan_elements/in_accel_\(axis)_type"] = "le:s16/32>>0"
      }
      for (name, text) in files {
        let path = sensor + "/" + name
        try FileManager.default.createDirectory(
          atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try (text + "\n").write(toFile: path, atomically: false, encoding: .utf8)
      }
      for directory in [devices, nodes] {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true)
      }
      try FileManager.default.createSymbolicLink(
        atPath: devices + "/iio:device0", withDestinationPath: sensor)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func attribute(_ name: String) -> String {
      ((try? String(contentsOfFile: sensor + "/" + name, encoding: .utf8)) ?? "")
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Scans of the direction of gravity in 1/1000 g, 10 ms apart.
    func writeNode(_ readings: [(Int16, Int16, Int16)]) throws {
      var bytes: [UInt8] = []
      for (i, r) in readings.enumerated() {
        for v in [r.0, r.1, r.2] {
          let word = UInt32(bitPattern: Int32(v))
          bytes += (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) }
        }
        bytes += [0, 0, 0, 0]
        let ns = UInt64(1_000_000_000 + i * 10_000_000)
        bytes += (0..<8).map { UInt8(truncatingIfNeeded: ns >> (8 * UInt64($0))) }
      }
      try Data(bytes).write(to: URL(fileURLWithPath: nodes + "/iio:device0"))
    }

    func imu() throws -> IIOIMU {
      try #require(IIOIMU.group(IIOScanner.scan(directory: devices, nodeDirectory: nodes)).first)
    }
  }

  @Test func readsGravitysDirectionAsTheCardsTiltAndStopClosesTheBuffer() throws {
    let tree = try Tree()
    // Pitched 30°: gravity's direction (0, -sin 30°, -cos 30°) g.
    try tree.writeNode(Array(repeating: (0, -500, -866), count: 5))
    let manager = try TiltMotionManager(
      device: IIOMotionDevice(imu: try tree.imu(), onNote: { _ in }),
      sink: FrameHandlerSink { _ in })
    #expect(manager.isDeviceOpen)
    #expect(tree.attribute("buffer/enable") == "1")
    #expect(tree.attribute("scan_elements/in_timestamp_en") == "1")
    try manager.service(ready: Set(manager.pollDescriptors))
    let gravity = try #require(manager.pipeline.manager.deviceMotion?.gravity)
    #expect(abs(gravity.y + 0.5) < 1e-3 && abs(gravity.z + 0.866) < 1e-3, "gravity \(gravity)")
    try manager.stopDeviceMotionUpdates()
    #expect(!manager.isDeviceOpen)
    #expect(manager.pollDescriptors.isEmpty, "stopped: nothing to wake the loop")
    #expect(tree.attribute("buffer/enable") == "0")
    try manager.startDeviceMotionUpdates()
    #expect(manager.isDeviceOpen)
    #expect(tree.attribute("buffer/enable") == "1")
  }

  @Test func theMountMatrixComesFromTheDriverBeforeTheSign() throws {
    let tree = try Tree()
    try ("0, 1, 0; -1, 0, 0; 0, 0, 1\n").write(
      toFile: tree.sensor + "/in_accel_mount_matrix", atomically: false, encoding: .utf8)
    // Device x carries gravity: after the matrix it is the card's -y; the up-vector +y.
    try tree.writeNode(Array(repeating: (1000, 0, 0), count: 3))
    let manager = try TiltMotionManager(
      device: IIOMotionDevice(imu: try tree.imu(), onNote: { _ in }),
      sink: FrameHandlerSink { _ in })
    try manager.service(ready: Set(manager.pollDescriptors))
    let gravity = try #require(manager.pipeline.manager.deviceMotion?.gravity)
    #expect(abs(gravity.y + 1) < 1e-3, "gravity \(gravity)")
  }
}
