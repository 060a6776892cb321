import Foundation
import Testing

@testable import Evdev

/// A node that can't be opened is still named from sysfs and udev.
@Suite struct UnreadableDeviceTests {
  /// `/dev/null` stands in for an event node: a character device (1:3) whose
  /// sysfs and udev entries are written to a scratch directory.
  @Test func nameFromSysfsAndKindFromUdev() throws {
    let root = TestData.scratchDirectory()
    let sysfs = root + "/sys"
    let udev = root + "/udev"
    try FileManager.default.createDirectory(
      atPath: sysfs + "/dev/char/1:3/device", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: udev, withIntermediateDirectories: true)
    try "Sony Motion Sensors\n".write(
      toFile: sysfs + "/dev/char/1:3/device/name", atomically: true, encoding: .utf8)
    try "I:123\nE:ID_INPUT=1\nE:ID_INPUT_ACCELEROMETER=1\n".write(
      toFile: udev + "/c1:3", atomically: true, encoding: .utf8)
    let device = UnreadableDevice(path: "/dev/null", sysfs: sysfs, udev: udev)
    #expect(device.name == "Sony Motion Sensors")
    #expect(device.isMotionDevice == true)

    try "E:ID_INPUT=1\nE:ID_INPUT_KEYBOARD=1\n".write(
      toFile: udev + "/c1:3", atomically: true, encoding: .utf8)
    #expect(UnreadableDevice(path: "/dev/null", sysfs: sysfs, udev: udev).isMotionDevice == false)
    try FileManager.default.removeItem(atPath: udev + "/c1:3")
    #expect(UnreadableDevice(path: "/dev/null", sysfs: sysfs, udev: udev).isMotionDevice == nil)
  }

  @Test func aPlainFileHasNoEntries() {
    let device = UnreadableDevice(path: TestData.file("x"))
    #expect(device.name == nil && device.isMotionDevice == nil)
  }
}
