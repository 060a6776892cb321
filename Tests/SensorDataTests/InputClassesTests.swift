import Testing

@testable import SensorData

/// udev's input_id rules (systemd src/udev/udev-builtin-input_id.c), case by case.
@Suite struct InputClassesTests {
  struct Case: Sendable, CustomStringConvertible {
    var description: String
    var info: DeviceInfo
    var udev: [String]
    var kind: DeviceKind
    /// Words the reason must hold when the kind is unsupported.
    var reason: String = ""
  }

  static func info(
    _ name: String, bus: UInt16 = 3, props: Set<UInt16> = [], keys: [UInt16] = [],
    abs: [UInt16] = [], rel: [UInt16] = [], types: [UInt16] = []
  ) -> DeviceInfo {
    var codes: [UInt16: Set<UInt16>] = [:]
    if !keys.isEmpty { codes[EventType.key] = Set(keys) }
    if !abs.isEmpty { codes[EventType.abs] = Set(abs) }
    if !rel.isEmpty { codes[EventType.rel] = Set(rel) }
    for type in types { codes[type, default: []].formUnion([]) }
    var absInfo: [UInt16: AbsInfo] = [:]
    for code in abs { absInfo[code] = AbsInfo(minimum: 0, maximum: 32767) }
    return DeviceInfo(
      name: name, id: DeviceID(bustype: bus, vendor: 0x1234, product: 0x5678, version: 1),
      properties: props, codes: codes, absInfo: absInfo)
  }

  static let cases: [Case] = [
    Case(
      description: "QEMU USB Tablet: ABS_X/Y and mouse buttons",
      info: info(
        "QEMU 0.12.1 QEMU USB Tablet", keys: [0x110, 0x111, 0x112], abs: [0, 1], rel: [8]),
      udev: ["ID_INPUT_MOUSE"], kind: .unsupported, reason: "absolute pointer"),
    Case(
      description: "IRTOUCH touchscreen: INPUT_PROP_DIRECT, multitouch, EV_KEY without keys",
      info: info(
        "IRTOUCH InfraRed USB TouchScreen", props: [1], abs: [0, 1, 0x2f, 0x35, 0x36, 0x39],
        types: [EventType.key]),
      udev: ["ID_INPUT_TOUCHSCREEN"], kind: .unsupported, reason: "touchscreen"),
    Case(
      description: "touchpad: BTN_TOOL_FINGER, not direct",
      info: info("Touchpad", keys: [0x110, 0x145, 0x14a], abs: [0, 1, 0x35, 0x36]),
      udev: ["ID_INPUT_TOUCHPAD"], kind: .unsupported, reason: "touchpad"),
    Case(
      description: "pen tablet: BTN_TOOL_PEN and BTN_STYLUS",
      info: info("Pen", keys: [0x140, 0x14a, 0x14b], abs: [0, 1, 0x18]),
      udev: ["ID_INPUT_TABLET"], kind: .unsupported, reason: "pen tablet"),
    Case(
      description: "tablet pad: BTN_0 with BTN_STYLUS and no pen",
      info: info("Pad", keys: [0x100, 0x101, 0x14b], abs: [0, 1]),
      udev: ["ID_INPUT_TABLET", "ID_INPUT_TABLET_PAD"], kind: .unsupported, reason: "pen tablet"),
    Case(
      description: "gamepad with sticks",
      info: info("Pad", keys: [0x130, 0x131, 0x13a], abs: [0, 1, 3, 4]),
      udev: ["ID_INPUT_JOYSTICK"], kind: .joystick),
    Case(
      description: "flight stick: BTN_TRIGGER",
      info: info("Stick", keys: [0x120, 0x121], abs: [0, 1, 6]),
      udev: ["ID_INPUT_JOYSTICK"], kind: .joystick),
    Case(
      description: "a mouse with more than 16 buttons is no joystick",
      info: info("MMO Mouse", keys: Array(0x110...0x125), rel: [0, 1, 8]),
      udev: ["ID_INPUT_MOUSE"], kind: .unsupported, reason: "a mouse"),
    Case(
      description: "ABS_X/Y without buttons or joystick axes: nothing",
      info: info("Odd", abs: [0, 1]), udev: [], kind: .unsupported,
      reason: "udev does not call it a joystick"),
    Case(
      description: "ABS_X/Y/Z without keys: an accelerometer",
      info: info("Accel", abs: [0, 1, 2]), udev: ["ID_INPUT_ACCELEROMETER"], kind: .accelerometer),
    Case(
      description: "INPUT_PROP_ACCELEROMETER with keys: still an accelerometer",
      info: info("Accel", props: [6], keys: [0x130], abs: [0, 1, 2]),
      udev: ["ID_INPUT_ACCELEROMETER"], kind: .accelerometer),
    Case(
      description:
        "ABS_X/Y/Z with a key and no property: a joystick (ABS_Z is no joystick axis, BTN_A is)",
      info: info("Pad", keys: [0x130], abs: [0, 1, 2]), udev: ["ID_INPUT_JOYSTICK"],
      kind: .joystick),
    Case(
      description: "i2c mouse is a pointing stick",
      info: info("Stick", bus: 0x18, keys: [0x110, 0x111], rel: [0, 1]),
      udev: ["ID_INPUT_MOUSE", "ID_INPUT_POINTINGSTICK"], kind: .unsupported,
      reason: "pointing stick"),
    Case(
      description: "a full keyboard",
      info: info("Keyboard", keys: Array(1...120)), udev: ["ID_INPUT_KEY", "ID_INPUT_KEYBOARD"],
      kind: .unsupported, reason: "keys or buttons only"),
    Case(
      description: "media keys in the high block",
      info: info("Remote", keys: [0x160, 0x161]), udev: ["ID_INPUT_KEY"], kind: .unsupported,
      reason: "keys or buttons only"),
    Case(
      description: "a scroll wheel alone",
      info: info("Wheel", rel: [8]), udev: ["ID_INPUT_KEY"], kind: .unsupported,
      reason: "relative axes only"),
    Case(
      description: "a lid switch",
      info: info("Lid Switch", types: [5]), udev: ["ID_INPUT_SWITCH"], kind: .unsupported),
  ]

  @Test(arguments: cases)
  func classifiesAsUdevDoes(_ c: Case) {
    let profile = DeviceProfile.classify(c.info)
    #expect(profile.inputClasses.udevProperties == c.udev)
    #expect(profile.kind == c.kind, "\(profile.reason)")
    #expect(c.reason.isEmpty || profile.reason.contains(c.reason), "\(profile.reason)")
  }
}
