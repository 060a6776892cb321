import Foundation

/// A fake sysfs tree in a temporary directory: the devices directory with
/// `iio:deviceN` links to device directories under a hub, like the kernel's
/// `/sys/bus/iio/devices`, and a node directory for `/dev/iio:deviceN`.
final class FakeSysfs {
  let root: URL
  var devices: String { root.appendingPathComponent("bus/iio/devices").path }
  var nodes: String { root.appendingPathComponent("dev").path }

  init() throws {
    root = FileManager.default.temporaryDirectory
      .appendingPathComponent("tilt-iio-\(UUID().uuidString)")
    for path in [devices, nodes] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
  }

  deinit { try? FileManager.default.removeItem(at: root) }

  /// A device directory under `parent` (relative to the root), linked as `iio:deviceN`.
  @discardableResult
  func addDevice(
    number: Int, parent: String, files: [String: String]
  ) throws -> String {
    let directory = root.appendingPathComponent("devices/\(parent)/iio:device\(number)").path
    try write(files, in: directory)
    try FileManager.default.createSymbolicLink(
      atPath: "\(devices)/iio:device\(number)", withDestinationPath: directory)
    return directory
  }

  func addTrigger(number: Int, name: String) throws {
    try write(["name": name], in: "\(devices)/trigger\(number)")
  }

  func write(_ files: [String: String], in directory: String) throws {
    for (name, text) in files {
      let path = "\(directory)/\(name)"
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try (text + "\n").write(toFile: path, atomically: false, encoding: .utf8)
    }
  }

  func read(_ path: String) -> String? {
    (try? String(contentsOfFile: path, encoding: .utf8))?
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The attributes of a HID sensor hub's 3D sensor (`accel` or `anglvel`),
  /// as 6.1's hid-sensor-accel-3d and hid-sensor-gyro-3d make them: s32 axes
  /// at indexes 0-2, the s64 timestamp at 3, shared scale, offset 0.
  static func hidSensorFiles(kind: String, name: String, scale: String) -> [String: String] {
    var files: [String: String] = [
      "name": name, "in_\(kind)_scale": scale, "in_\(kind)_offset": "0",
      "\(kind == "accel" ? "in_accel" : "in_anglvel")_sampling_frequency": "100.000000",
      "buffer/enable": "0", "buffer/length": "2", "trigger/current_trigger": "",
      "scan_elements/in_timestamp_en": "0", "scan_elements/in_timestamp_index": "3",
      "scan_elements/in_timestamp_type": "le:s64/64>>0", "dev": "250:0",
    ]
    for (i, axis) in ["x", "y", "z"].enumerated() {
      files["in_\(kind)_\(axis)_raw"] = "0"
      files["scan_elements/in_\(kind)_\(axis)_en"] = "0"
      files["scan_elements/in_\(kind)_\(axis)_index"] = "\(i)"
      files["scan_elements/in_\(kind)_\(axis)_type"] = "le:s32/32>>0"
    }
    return files
  }
}

/// Little-endian bytes of `value`'s low `count` bytes.
func littleEndian(_ value: Int64, bytes count: Int) -> [UInt8] {
  (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * Int64($0))) }
}
