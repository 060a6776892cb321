import Foundation
import IIO
import Testing

/// An IIO accelerometer on a fake sysfs tree of its own, for IIO's
/// `scan(directory:nodeDirectory:)` or, through ``environment``, for a
/// program's `TILT_IIO_DIR` and `TILT_IIO_DEV_DIR`.
public final class FakeIIOSensor: Sendable {
  /// How the sensor is read.
  public enum Kind: Sendable {
    /// A HID hub's accelerometer with a buffer: its node is a file of
    /// crafted scans (``writeNode(_:)``).
    case buffered
    /// An i2c accelerometer without a buffer, polled through
    /// `in_accel_*_raw` at 50 Hz: standing upright (gravity along its −y).
    case polled
  }

  public let root = NSTemporaryDirectory() + "tilt-iio-\(UUID().uuidString)"
  /// The bus directory (`/sys/bus/iio/devices`).
  public var devices: String { root + "/bus" }
  /// The node directory (`/dev`).
  public var nodes: String { root + "/dev" }
  /// The sensor's sysfs directory.
  public let sensor: String

  public init(_ kind: Kind = .buffered) throws {
    var files: [String: String]
    switch kind {
    case .buffered:
      sensor = root + "/devices/0003:1209:7117.0001/HID-SENSOR-200073.1.auto/iio:device0"
      files = [
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
    case .polled:
      sensor = root + "/devices/platform/i2c-0/0-0018/iio:device0"
      files = [
        "name": "lis3dh", "in_accel_x_raw": "0", "in_accel_y_raw": "-1000", "in_accel_z_raw": "0",
        "in_accel_scale": "0.00980665", "sampling_frequency": "50",
      ]
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

  /// What a program needs to find this sensor, and no other, as its IIO sensors.
  public var environment: [String: String] {
    ["TILT_IIO_DIR": devices, "TILT_IIO_DEV_DIR": nodes]
  }

  public func attribute(_ name: String) -> String {
    ((try? String(contentsOfFile: sensor + "/" + name, encoding: .utf8)) ?? "")
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Scans of the direction of gravity in 1/1000 g, 10 ms apart.
  public func writeNode(_ readings: [(Int16, Int16, Int16)]) throws {
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

  public func imu() throws -> IIOIMU {
    try #require(IIOIMU.group(IIOScanner.scan(directory: devices, nodeDirectory: nodes)).first)
  }
}
