import Evdev
import Foundation
import Testing

@testable import tilt_cli

/// What plain `tilt-cli` says when it falls back to the demo.
@Suite struct DemoNoticeTests {
  @Test func motionDevicesUdevKnowsAreNamedAndTheRestLeftOut() {
    let notice = DemoNotice(unreadable: [
      UnreadableDevice(
        path: "/dev/input/event2", name: "AT Translated Set 2 keyboard", isMotionDevice: false),
      UnreadableDevice(
        path: "/dev/input/event5", name: "DualSense Wireless Controller Motion Sensors",
        isMotionDevice: true),
    ])
    #expect(
      notice.message
        == "cannot read the motion device /dev/input/event5 (DualSense Wireless Controller Motion Sensors): "
        + "permission denied. To use it, \(DeviceError.permissionFix). Playing the bundled demo.")
    #expect(notice.heading.contains("1 device not readable: permission denied; q shows the fix"))
  }

  /// The fix names the rule the package ships, which opens no keyboard.
  @Test func theFixIsTheShippedUdevRule() throws {
    let file = "packaging/udev/70-tilt-evdev.rules"
    let rules = try String(contentsOfFile: file, encoding: .utf8)
      .split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
    #expect(rules == [Substring(DeviceError.udevRule)])
    #expect(DeviceError.permissionFix.contains(file))
    #expect(!DeviceError.permissionFix.contains("usermod"))
  }

  /// Only devices udev calls something else (a keyboard): no motion device.
  @Test func unreadableKeyboardsAloneAreNoMotionDevice() {
    let notice = DemoNotice(unreadable: [
      UnreadableDevice(path: "/dev/input/event2", name: "keyboard", isMotionDevice: false)
    ])
    #expect(
      notice.message == "no motion device found (see 'tilt-cli devices'); playing the bundled demo."
    )
    #expect(notice.heading.hasPrefix("Demo: the bundled recording (no motion device found"))
  }
}
