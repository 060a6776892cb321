import Foundation
import Testing

@testable import Evdev

/// A node that can't be opened is still named from sysfs and udev.
@Suite struct UnreadableDeviceTests {
  /// `/dev/null` stands in for an event node: a character device (1:3) whose
  /// sysfs and udev entries are written to a scratch directory.
  @Test func nameFromSysfsAndKindFromUdev() throws {
    let root = NSTemporaryDirectory() + "tilt-unreadable-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
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

  @Test func aPlainFileHasNoEntries() throws {
    let path = NSTemporaryDirectory() + "tilt-unreadable-\(UUID().uuidString)"
    try "x".write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let device = UnreadableDevice(path: path)
    #expect(device.name == nil && device.isMotionDevice == nil)
  }
}
