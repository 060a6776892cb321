import SensorData
import Foundation
import Testing

@testable import IIO

@Suite struct StreamTests {
  /// One 24-byte scan of a HID accelerometer: s32 x, y, z, padding, s64 ns.
  static func scan(_ x: Int64, _ y: Int64, _ z: Int64, ns: Int64) -> [UInt8] {
    littleEndian(x, bytes: 4) + littleEndian(y, bytes: 4) + littleEndian(z, bytes: 4)
      + [0, 0, 0, 0] + littleEndian(ns, bytes: 8)
  }

  @Test func enablesTheBufferWithItsOwnTriggerAndReadsScans() throws {
    let fake = try FakeSysfs()
    try DiscoveryTests.hub(fake)
    let device = try #require(
      IIOScanner.scan(directory: fake.devices, nodeDirectory: fake.nodes).first)
    // The node: a file holding two scans and half of a third.
    let bytes =
      Self.scan(0, 0, -100, ns: 1_000_000_000) + Self.scan(50, -50, -86, ns: 1_010_000_000)
    try Data(bytes + Self.scan(1, 2, 3, ns: 5).prefix(10)).write(
      to: URL(fileURLWithPath: device.nodePath))
    let stream = try IIOStream(device: device, kinds: [.accelerometer])
    #expect(stream.isBuffered)
    #expect(fake.read(device.sysfsPath + "/buffer/enable") == "1")
    #expect(fake.read(device.sysfsPath + "/trigger/current_trigger") == "accel_3d-dev0")
    // The kfifo default of 2 scans is raised to a second of the sensor rate, at least 128.
    #expect(fake.read(device.sysfsPath + "/buffer/length") == "128")
    for name in ["accel_x", "accel_y", "accel_z", "timestamp"] {
      #expect(fake.read(device.sysfsPath + "/scan_elements/in_\(name)_en") == "1")
    }
    #expect(stream.layout?.scanBytes == 24)
    let scans = try stream.read()
    #expect(scans.count == 2)
    #expect(scans[0].timestampNanoseconds == 1_000_000_000)
    let a = try #require(scans[1].values[.accelerometer])
    #expect(abs(a.x - 50 * 0.0980665) < 1e-12 && abs(a.z + 86 * 0.0980665) < 1e-12)
    stream.close()
    #expect(stream.fileDescriptor == nil)
    #expect(fake.read(device.sysfsPath + "/buffer/enable") == "0")
  }

  @Test func pollsRawWithoutABuffer() throws {
    let fake = try FakeSysfs()
    try fake.addDevice(
      number: 0, parent: "i2c-0/0-0018",
      files: [
        "name": "lis3dh", "in_accel_x_raw": "-12", "in_accel_y_raw": "7",
        "in_accel_z_raw": "1024", "in_accel_scale": "0.009576", "in_accel_offset": "2",
      ])
    let device = try #require(
      IIOScanner.scan(directory: fake.devices, nodeDirectory: fake.nodes).first)
    #expect(!device.hasBuffer)
    let stream = try IIOStream(device: device, kinds: [.accelerometer])
    #expect(!stream.isBuffered && stream.fileDescriptor == nil)
    let a = try #require(try stream.readRaw().values[.accelerometer])
    #expect(a == SIMD3(-10, 9, 1026) * 0.009576)
  }

  @Test func anUnreadableNodeIsNamed() throws {
    let fake = try FakeSysfs()
    try DiscoveryTests.hub(fake)
    let device = try #require(
      IIOScanner.scan(directory: fake.devices, nodeDirectory: fake.nodes).first)
    // No node file: the sensor is gone; the buffer is left disabled.
    #expect(throws: IIOError.vanished(device.nodePath)) {
      try IIOStream(device: device, kinds: [.accelerometer])
    }
    #expect(fake.read(device.sysfsPath + "/buffer/enable") == "0")
  }

  @Test func aMalformedScanTypeNamesItsFile() throws {
    let fake = try FakeSysfs()
    var files = FakeSysfs.hidSensorFiles(kind: "accel", name: "accel_3d", scale: "1")
    files["scan_elements/in_accel_y_type"] = "le:s32"
    let path = try fake.addDevice(number: 0, parent: "h/HID-SENSOR-200073.1.auto", files: files)
    let device = try #require(
      IIOScanner.scan(directory: fake.devices, nodeDirectory: fake.nodes).first)
    try Data().write(to: URL(fileURLWithPath: device.nodePath))
    do {
      _ = try IIOStream(device: device, kinds: [.accelerometer])
      Issue.record("a malformed type was accepted")
    } catch {
      #expect(error.path.hasSuffix("scan_elements/in_accel_y_type"))
      #expect("\(error)".contains("le:s32"))
    }
    _ = path
  }

  @Test(arguments: [
    // Face up on a HID hub: gravity's direction is −z; the card reads +1 g up.
    (SIMD3<Double>(0, 0, -9.80665), SIMD3<Double>(0, 0, 1)),
    // Upright (portrait): y ≈ −1 g; the card's top edge is up.
    (SIMD3<Double>(0, -9.80665, 0), SIMD3<Double>(0, 1, 0)),
    // Right edge down: gravity along +x... reads x = +1 g; the card's up-vector is −x.
    (SIMD3<Double>(9.80665, 0, 0), SIMD3<Double>(-1, 0, 0)),
  ])
  func readsTheDirectionOfGravity(reading: SIMD3<Double>, card: SIMD3<Double>) {
    let converted = IIOConvention.cardAcceleration(reading, mount: .identity)
    #expect(abs(converted.x - card.x) < 1e-12 && abs(converted.y - card.y) < 1e-12)
    #expect(abs(converted.z - card.z) < 1e-12)
  }

  @Test func mountMatrixAppliesBeforeTheSign() throws {
    let m = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
    let converted = IIOConvention.cardAcceleration(SIMD3(0, -9.80665, 0), mount: m)
    #expect(converted == SIMD3(1, 0, 0) * 1 || abs(converted.x - 1) < 1e-12)
    #expect(IIOConvention.cardRotationRate(SIMD3(1, 2, 3), mount: m) == SIMD3(2, -1, 3))
  }
}
