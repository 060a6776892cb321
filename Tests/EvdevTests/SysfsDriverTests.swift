import Foundation
import Testing

@testable import Evdev

/// `UdevProperties.driver(forDevicePath:)` on a made-up sysfs: the driver of
/// the HID device under an input node is the last component of its link.
@Suite struct SysfsDriverTests {
  /// A sysfs tree where the character device 1:3 (`/dev/null`) sits under an
  /// input device whose parent is driven by `driver`.
  static func sysfs(driver: String?) throws -> String {
    let root = NSTemporaryDirectory() + "tilt-sysfs-\(UUID().uuidString)"
    let fm = FileManager.default
    let hid = root + "/devices/pci0000:00/usb1/1-2/0003:054C:09CC.0001"
    let event = hid + "/input/input5/event9"
    try fm.createDirectory(atPath: event, withIntermediateDirectories: true)
    try fm.createDirectory(atPath: root + "/dev/char", withIntermediateDirectories: true)
    try fm.createDirectory(
      atPath: root + "/bus/hid/drivers/sony", withIntermediateDirectories: true)
    try fm.createSymbolicLink(atPath: root + "/dev/char/1:3", withDestinationPath: event)
    try fm.createSymbolicLink(atPath: event + "/device", withDestinationPath: "..")
    try fm.createSymbolicLink(atPath: hid + "/input/input5/device", withDestinationPath: "../..")
    if let driver {
      try fm.createSymbolicLink(
        atPath: hid + "/driver", withDestinationPath: "../../../../../bus/hid/drivers/\(driver)")
    }
    return root
  }

  @Test func readsTheDriverOfTheHIDDevice() throws {
    #expect(
      UdevProperties.driver(forDevicePath: "/dev/null", sysfs: try Self.sysfs(driver: "sony"))
        == "sony")
  }

  @Test func noDriverLinkNoFileOrNoCharacterDeviceGiveNothing() throws {
    #expect(
      UdevProperties.driver(forDevicePath: "/dev/null", sysfs: try Self.sysfs(driver: nil)) == "")
    #expect(UdevProperties.driver(forDevicePath: "/dev/null", sysfs: "/nonexistent-sysfs") == "")
    #expect(UdevProperties.driver(forDevicePath: NSTemporaryDirectory()) == "")
  }
}
