import Foundation
import Testing

@testable import IIO

@Suite struct DiscoveryTests {
  /// A HID sensor hub with an accelerometer, a gyroscope and their triggers,
  /// laid out as 6.1's drivers lay them out in sysfs.
  static func hub(_ fake: FakeSysfs) throws {
    let hub = "pci0000:00/0003:8086:22D8.0001"
    try fake.addDevice(
      number: 0, parent: "\(hub)/HID-SENSOR-200073.1.auto",
      files: FakeSysfs.hidSensorFiles(kind: "accel", name: "accel_3d", scale: "0.098066500"))
    try fake.addDevice(
      number: 1, parent: "\(hub)/HID-SENSOR-200076.2.auto",
      files: FakeSysfs.hidSensorFiles(kind: "anglvel", name: "gyro_3d", scale: "0.000174532"))
    try fake.addTrigger(number: 0, name: "accel_3d-dev0")
    try fake.addTrigger(number: 1, name: "gyro_3d-dev1")
  }

  @Test func findsTheHubsAccelerometerAndGyroscopeAsOneIMU() throws {
    let fake = try FakeSysfs()
    try Self.hub(fake)
    // Another sensor of another hub, without a buffer: polled.
    try fake.addDevice(
      number: 2, parent: "platform/i2c-0/i2c-BOSC0200:00",
      files: [
        "name": "bmc150_accel", "in_accel_x_raw": "1", "in_accel_y_raw": "2",
        "in_accel_z_raw": "3", "in_accel_scale": "0.009582",
        "in_accel_mount_matrix": "0, 1, 0; -1, 0, 0; 0, 0, 1",
      ])
    let devices = IIOScanner.scan(directory: fake.devices, nodeDirectory: fake.nodes)
    #expect(devices.map(\.deviceName) == ["iio:device0", "iio:device1", "iio:device2"])
    #expect(devices.map(\.name) == ["accel_3d", "gyro_3d", "bmc150_accel"])
    #expect(devices[0].kinds == [.accelerometer])
    #expect(devices[1].kinds == [.gyroscope])
    #expect(devices[0].hasBuffer && devices[1].hasBuffer && !devices[2].hasBuffer)
    #expect(devices[0].hub.hasSuffix("0003:8086:22D8.0001"))
    #expect(devices[0].hub == devices[1].hub)
    #expect(devices[2].hub.hasSuffix("i2c-BOSC0200:00"))
    #expect(devices[0].scale(.accelerometer) == SIMD3(repeating: 0.0980665))
    #expect(devices[0].samplingFrequency == 100)
    #expect(devices[0].bufferLength == 2)
    #expect(devices[0].currentTrigger == "")
    #expect(devices[0].nodePath == fake.nodes + "/iio:device0")
    #expect(devices[2].mountMatrixAttribute == "0, 1, 0; -1, 0, 0; 0, 0, 1")
    let imus = IIOIMU.group(devices)
    #expect(imus.count == 2)
    #expect(imus[0].gyroscope?.deviceName == "iio:device1")
    #expect(imus[1].gyroscope == nil)
    #expect(IIOIMU.find("/dev/iio:device1", in: devices)?.accelerometer.deviceName == "iio:device0")
    #expect(IIOScanner.triggerNames(directory: fake.devices) == ["accel_3d-dev0", "gyro_3d-dev1"])
  }

  @Test func perAxisScaleAndOffsetWinOverShared() throws {
    let fake = try FakeSysfs()
    var files = FakeSysfs.hidSensorFiles(kind: "accel", name: "a", scale: "2")
    files["in_accel_y_scale"] = "3"
    files["in_accel_z_offset"] = "-5"
    try fake.addDevice(number: 0, parent: "x", files: files)
    let device = try #require(
      IIOScanner.scan(directory: fake.devices, nodeDirectory: fake.nodes).first)
    #expect(device.scale(.accelerometer) == SIMD3(2, 3, 2))
    #expect(device.offset(.accelerometer) == SIMD3(0, 0, -5))
  }

  @Test func leavesOutDevicesWithoutMotionChannels() throws {
    let fake = try FakeSysfs()
    try fake.addDevice(number: 0, parent: "x", files: ["name": "als", "in_illuminance_raw": "4"])
    // Only two axes of an accelerometer: not a 3D one.
    try fake.addDevice(
      number: 1, parent: "y", files: ["name": "half", "in_accel_x_raw": "1", "in_accel_y_raw": "1"])
    #expect(IIOScanner.scan(directory: fake.devices, nodeDirectory: fake.nodes).isEmpty)
  }
}
