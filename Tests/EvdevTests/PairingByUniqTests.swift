import Testing

@testable import Evdev
@testable import SensorData

/// hid-playstation on Linux 6.1 copies the controller's MAC into `uniq` on all
/// of its nodes and leaves `phys` empty: pairing works by `uniq` alone.
@Suite struct HidPlaystationPairingTests {
  static func gamepad(_ mac: String) -> DeviceInfo {
    DeviceInfo(
      name: "Sony Interactive Entertainment DualSense Wireless Controller",
      id: DeviceID(bustype: 3, vendor: 0x054c, product: 0x0ce6, version: 0x8111), uniq: mac,
      codes: [
        EventType.abs: [0, 1, 2, 3, 4, 5, 0x10, 0x11],
        EventType.key: [0x130, 0x131, 0x133, 0x134, 0x136, 0x137, 0x138, 0x139, 0x13a, 0x13b],
      ])
  }

  static func touchpad(_ mac: String) -> DeviceInfo {
    DeviceInfo(
      name: "Sony Interactive Entertainment DualSense Wireless Controller Touchpad",
      id: DeviceID(bustype: 3, vendor: 0x054c, product: 0x0ce6, version: 0x8111), uniq: mac,
      properties: [2],  // INPUT_PROP_BUTTONPAD
      codes: [
        EventType.abs: [0, 1, 0x2f, 0x35, 0x36, 0x39], EventType.key: [0x110, 0x145, 0x14a],
      ])
  }

  static func motion(_ mac: String) -> DeviceInfo {
    var abs: [UInt16: AbsInfo] = [:]
    for code: UInt16 in [0, 1, 2] {
      abs[code] = AbsInfo(minimum: -32768, maximum: 32768, fuzz: 16, resolution: 8192)
    }
    for code: UInt16 in [3, 4, 5] {
      abs[code] = AbsInfo(minimum: -2_097_152, maximum: 2_097_152, fuzz: 16, resolution: 1024)
    }
    return DeviceInfo(
      name: "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors",
      id: DeviceID(bustype: 3, vendor: 0x054c, product: 0x0ce6, version: 0x8111), uniq: mac,
      properties: [InputProperty.accelerometer],
      codes: [EventType.abs: [0, 1, 2, 3, 4, 5], EventType.msc: [MscCode.timestamp]],
      absInfo: abs)
  }

  @Test func twoDualSensesWithNoPhysPairByUniq() {
    let a = "a0:ab:51:00:00:0a"
    let b = "a0:ab:51:00:00:0b"
    // Listed so that the nearest node of the same name is the other pad's.
    let nodes: [(path: String, info: DeviceInfo)] = [
      ("/dev/input/event4", Self.gamepad(a)), ("/dev/input/event5", Self.gamepad(b)),
      ("/dev/input/event6", Self.touchpad(a)), ("/dev/input/event7", Self.touchpad(b)),
      ("/dev/input/event8", Self.motion(b)), ("/dev/input/event9", Self.motion(a)),
    ]
    #expect(nodes.allSatisfy { $0.info.phys.isEmpty })
    let pairs = DeviceScanner.pairButtonNodes(nodes)
    #expect(
      pairs == ["/dev/input/event9": "/dev/input/event4", "/dev/input/event8": "/dev/input/event5"])
    #expect(DeviceProfile.classify(Self.touchpad(a)).inputClasses.contains(.touchpad))
    #expect(DeviceProfile.classify(Self.motion(a)).kind == .imu)
  }
}
