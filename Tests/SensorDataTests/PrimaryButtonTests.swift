import SensorData
import Testing

/// The primary (flip) button of a device, from the keys its nodes report
/// (`Buttons.primary(among:)`), on the key sets the kernel's
/// drivers give real controllers. The description files of
/// `../shared/data/evemu-devices` are checked through `tilt-cli info` in
/// CLITests (`FlipButtonCLITests`); the controllers below have no description
/// there, so their key sets are the drivers' own, named by where they come from.
@Suite struct PrimaryButtonTests {
  /// hid-nintendo, `joycon_button_inputs_l` and `joycon_dpad_inputs_jc`: a
  /// left Joy-Con's gamepad node (minus, capture, stick click, L, ZL, the
  /// D-pad as four buttons). Later kernels add SL/SR as BTN_TR/BTN_TR2.
  static let leftJoyCon: Set<UInt16> = [
    0x13a, 0x135, 0x13d, 0x136, 0x138, 0x220, 0x221, 0x222, 0x223,
  ]
  static let leftJoyConWithRails = leftJoyCon.union([0x137, 0x139])
  /// hid-nintendo, `joycon_button_inputs_r`: plus, home, stick click, B A X Y
  /// (BTN_SOUTH EAST NORTH WEST), R, ZR.
  static let rightJoyCon: Set<UInt16> = [
    0x13b, 0x13c, 0x13e, 0x130, 0x131, 0x133, 0x134, 0x137, 0x139,
  ]
  /// hid-nintendo's Pro Controller: both Joy-Cons' buttons, the D-pad as a hat.
  static let proController = leftJoyCon.subtracting([0x220, 0x221, 0x222, 0x223])
    .union(rightJoyCon)
  /// hid-playstation's DualSense gamepad node: the four face buttons, L1 R1
  /// L2 R2, create, options, the sticks' clicks, PS.
  static let dualSense: Set<UInt16> = [
    0x134, 0x133, 0x130, 0x131, 0x136, 0x137, 0x138, 0x139, 0x13a, 0x13b, 0x13d, 0x13e,
    0x13c,
  ]
  /// A flight stick (hid-generic): BTN_TRIGGER, BTN_THUMB … BTN_BASE6.
  static let joystick = Set<UInt16>(0x120...0x12b)
  /// A keyboard: letters, Enter, Space, no buttons.
  static let keyboard: Set<UInt16> = [1, 28, 30, 31, 32, 57]
  /// A mouse: left, right, middle.
  static let mouse: Set<UInt16> = [0x110, 0x111, 0x112]

  @Test(
    arguments: [
      ("right Joy-Con", rightJoyCon, [0x130]),
      ("Pro Controller", proController, [0x130]),
      ("DualSense", dualSense, [0x130]),
      ("flight stick", joystick, [0x120]),
      ("left Joy-Con", leftJoyCon, [0x222]),
      ("left Joy-Con with SL/SR", leftJoyConWithRails, [0x222]),
      ("keyboard", keyboard, []),
      ("mouse", mouse, []),
      ("no keys", [], []),
    ] as [(String, Set<UInt16>, [UInt16])])
  func theFlipButtonOf(_ device: String, keys: Set<UInt16>, flips: [UInt16]) {
    #expect(Buttons.primary(among: keys).sorted() == flips, "\(device)")
  }

  /// contract §3.6's first buttons stay the flip buttons of every device that has one:
  /// both when it has both.
  @Test func aDeviceWithBothSpecButtonsFlipsWithBoth() {
    let keys: Set<UInt16> = [0x120, 0x121, 0x130, 0x131]
    #expect(Buttons.primary(among: keys) == [0x120, 0x130])
    #expect(Buttons.primary(among: keys) == Buttons.specPrimary)
  }

  /// Neither of contract §3.6's first buttons nor a D-pad: the lowest gamepad or joystick button,
  /// else the lowest misc button; mouse buttons and keys never.
  @Test func otherwiseTheLowestGamepadThenMiscButton() {
    #expect(Buttons.primary(among: [0x137, 0x131, 0x13b]) == [0x131])
    #expect(Buttons.primary(among: [0x121, 0x122]) == [0x121])
    #expect(Buttons.primary(among: [0x101, 0x100, 0x110]) == [0x100])
    #expect(Buttons.primary(among: [0x110, 0x14a, 0x140, 30]) == [])
  }

  /// A node carries a device's buttons when it has a gamepad or joystick
  /// button and is no motion node: the rule the pairing of nodes uses.
  @Test func aButtonNodeHasAGamepadButtonAndNoAccelerometer() {
    func node(_ keys: Set<UInt16>, motion: Bool = false) -> DeviceInfo {
      DeviceInfo(
        name: "pad", properties: motion ? [InputProperty.accelerometer] : [],
        codes: [EventType.key: keys])
    }
    #expect(Buttons.isButtonNode(node(Self.dualSense)))
    #expect(Buttons.isButtonNode(node(Self.joystick)))
    #expect(Buttons.isButtonNode(node(Self.leftJoyCon)))
    #expect(!Buttons.isButtonNode(node(Self.dualSense, motion: true)))
    #expect(!Buttons.isButtonNode(node(Self.keyboard)))
    #expect(!Buttons.isButtonNode(node(Self.mouse)))
    #expect(!Buttons.isButtonNode(node([0x100, 0x101])))
  }
}
