import Testing

@testable import Evdev
@testable import SensorData

@Suite struct DiscoveryPairingTests {
  static func motion(uniq: String = "", phys: String = "") -> DeviceInfo {
    DeviceInfo(
      name: "Pad Motion Sensors", uniq: uniq, phys: phys,
      properties: [InputProperty.accelerometer],
      codes: [EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.z, AbsCode.rx, AbsCode.ry, AbsCode.rz]])
  }

  static func gamepad(uniq: String = "", phys: String = "", button: UInt16 = ButtonCode.south)
    -> DeviceInfo
  {
    DeviceInfo(
      name: "Pad", uniq: uniq, phys: phys,
      codes: [EventType.key: [button, ButtonCode.east], EventType.abs: [AbsCode.x, AbsCode.y]])
  }

  static let keyboard = DeviceInfo(
    name: "Keyboard", uniq: "aa:bb", phys: "usb-0000:00:14.0-1/input0",
    codes: [EventType.key: [30, 31, 32]])

  @Test func sameUniqPairs() {
    let pairs = DeviceScanner.pairButtonNodes([
      ("/dev/input/event3", Self.gamepad(uniq: "11:22:33:44:55:66", phys: "bt-a")),
      ("/dev/input/event4", Self.motion(uniq: "11:22:33:44:55:66", phys: "bt-a")),
    ])
    #expect(pairs == ["/dev/input/event4": "/dev/input/event3"])
  }

  @Test func uniqBeatsAnEarlierNodeWithTheSamePhys() {
    let pairs = DeviceScanner.pairButtonNodes([
      ("/dev/input/event1", Self.gamepad(uniq: "", phys: "usb-1/input0")),
      ("/dev/input/event2", Self.gamepad(uniq: "cc", phys: "usb-2/input0")),
      ("/dev/input/event5", Self.motion(uniq: "cc", phys: "usb-1/input0")),
    ])
    #expect(pairs == ["/dev/input/event5": "/dev/input/event2"])
  }

  @Test func differentUniqNeverPairsEvenOnTheSameBluetoothAdapter() {
    // Bluetooth HID devices all carry the adapter's address as phys.
    let pairs = DeviceScanner.pairButtonNodes([
      ("/dev/input/event3", Self.gamepad(uniq: "11:11:11:11:11:11", phys: "aa:bb:cc:dd:ee:ff")),
      ("/dev/input/event4", Self.motion(uniq: "22:22:22:22:22:22", phys: "aa:bb:cc:dd:ee:ff")),
    ])
    #expect(pairs.isEmpty)
  }

  @Test func samePhysPairsWithoutUniq() {
    let pairs = DeviceScanner.pairButtonNodes([
      ("/dev/input/event7", Self.gamepad(phys: "usb-0000:00:14.0-2/input3")),
      ("/dev/input/event8", Self.motion(phys: "usb-0000:00:14.0-2/input3")),
    ])
    #expect(pairs == ["/dev/input/event8": "/dev/input/event7"])
  }

  @Test func exactPhysBeatsPhysPrefix() {
    let pairs = DeviceScanner.pairButtonNodes([
      ("/dev/input/event1", Self.gamepad(phys: "usb-0000:00:14.0-2/input0")),
      ("/dev/input/event2", Self.gamepad(phys: "usb-0000:00:14.0-2/input2")),
      ("/dev/input/event3", Self.motion(phys: "usb-0000:00:14.0-2/input2")),
    ])
    #expect(pairs == ["/dev/input/event3": "/dev/input/event2"])
  }

  @Test func physPrefixPairsInterfacesOfOneUSBDevice() {
    let pairs = DeviceScanner.pairButtonNodes([
      ("/dev/input/event1", Self.gamepad(phys: "usb-0000:00:14.0-3/input0")),
      ("/dev/input/event9", Self.gamepad(phys: "usb-0000:00:14.0-4/input0")),
      ("/dev/input/event10", Self.motion(phys: "usb-0000:00:14.0-4/input2")),
    ])
    #expect(pairs == ["/dev/input/event10": "/dev/input/event9"])
  }

  @Test func physWithoutSlashIsOnlyComparedWhole() {
    let pairs = DeviceScanner.pairButtonNodes([
      ("/dev/input/event1", Self.gamepad(phys: "aa:bb:cc:dd:ee:ff")),
      ("/dev/input/event2", Self.motion(phys: "aa:bb:cc:dd:ee:fe")),
    ])
    #expect(pairs.isEmpty)
  }

  @Test(arguments: [ButtonCode.south, ButtonCode.trigger, UInt16(0x13e)])
  func joystickAndGamepadButtonsMakeAButtonNode(button: UInt16) {
    let pairs = DeviceScanner.pairButtonNodes([
      ("/dev/input/event1", Self.gamepad(uniq: "u", button: button)),
      ("/dev/input/event2", Self.motion(uniq: "u")),
    ])
    #expect(pairs["/dev/input/event2"] == "/dev/input/event1")
  }

  @Test func keyboardsAndOtherMotionNodesAreNotButtonNodes() {
    let pairs = DeviceScanner.pairButtonNodes([
      ("/dev/input/event0", Self.keyboard),
      ("/dev/input/event1", Self.motion(uniq: "aa:bb", phys: "usb-0000:00:14.0-1/input0")),
      ("/dev/input/event2", Self.motion(uniq: "aa:bb", phys: "usb-0000:00:14.0-1/input0")),
    ])
    #expect(pairs.isEmpty)
  }

  @Test func withoutUniqOrPhysTheNameAndIDsDecide() {
    var pad = Self.gamepad()
    pad.id = DeviceID(bustype: 3, vendor: 0x054c, product: 0x0ce6, version: 0x8111)
    var sensors = Self.motion()
    sensors.id = pad.id
    var otherPad = pad
    otherPad.id.product = 0x05c4
    var unrelated = pad
    unrelated.name = "Other Pad"
    #expect(
      DeviceScanner.pairButtonNodes([("/dev/input/event1", pad), ("/dev/input/event2", sensors)])
        == ["/dev/input/event2": "/dev/input/event1"])
    #expect(
      DeviceScanner.pairButtonNodes([
        ("/dev/input/event1", otherPad), ("/dev/input/event2", sensors),
      ])
      .isEmpty)
    #expect(
      DeviceScanner.pairButtonNodes([
        ("/dev/input/event1", unrelated), ("/dev/input/event2", sensors),
      ])
      .isEmpty)
  }

  @Test func nameRuleIsRuledOutByDifferentPhys() {
    let pairs = DeviceScanner.pairButtonNodes([
      ("/dev/input/event1", Self.gamepad(phys: "usb-0000:00:14.0-1/input0")),
      ("/dev/input/event2", Self.motion(phys: "usb-0000:00:14.0-2/input0")),
    ])
    #expect(pairs.isEmpty)
  }

  @Test func nameRulePicksTheNearestNodeForTwoIdenticalControllers() {
    let pairs = DeviceScanner.pairButtonNodes([
      ("/dev/input/event4", Self.gamepad()),
      ("/dev/input/event5", Self.motion()),
      ("/dev/input/event6", Self.gamepad()),
      ("/dev/input/event7", Self.motion()),
    ])
    #expect(
      pairs == ["/dev/input/event5": "/dev/input/event4", "/dev/input/event7": "/dev/input/event6"])
  }

  @Test func twoControllersPairEachWithItsOwnButtons() {
    let pairs = DeviceScanner.pairButtonNodes([
      ("/dev/input/event10", Self.gamepad(uniq: "A")),
      ("/dev/input/event11", Self.motion(uniq: "A")),
      ("/dev/input/event12", Self.gamepad(uniq: "B")),
      ("/dev/input/event13", Self.motion(uniq: "B")),
    ])
    #expect(
      pairs == [
        "/dev/input/event11": "/dev/input/event10", "/dev/input/event13": "/dev/input/event12",
      ])
  }

  @Test func physPrefix() {
    #expect(DeviceScanner.physPrefix("usb-0000:00:14.0-1/input0") == "usb-0000:00:14.0-1")
    #expect(DeviceScanner.physPrefix("a/b/c") == "a/b")
    #expect(DeviceScanner.physPrefix("aa:bb:cc:dd:ee:ff") == nil)
    #expect(DeviceScanner.physPrefix("/input0") == nil)
    #expect(DeviceScanner.physPrefix("") == nil)
  }
}
