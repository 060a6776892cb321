import Foundation
import Testing

@testable import SensorData

/// Input nodes as the kernel's HID drivers create them (the ids they copy from
/// the HID device, their axes, ranges, resolutions and properties), read from
/// drivers/hid/hid-nintendo.c, hid-playstation.c, hid-sony.c and hid-steam.c.
enum DriverNodes {
  static let accel: Set<UInt16> = [InputProperty.accelerometer]

  /// hid-nintendo's IMU node (`joycon_input_create`): ABS_X/Y/Z ±32767 at
  /// JC_IMU_ACCEL_RES_PER_G, ABS_RX/RY/RZ ±32767000 at JC_IMU_GYRO_RES_PER_DPS,
  /// fuzz 10, MSC_TIMESTAMP, INPUT_PROP_ACCELEROMETER, the HID device's ids.
  static func nintendoIMU(_ name: String, product: UInt16, bus: UInt16 = 3) -> DeviceInfo {
    var abs: [UInt16: AbsInfo] = [:]
    for code: UInt16 in [0, 1, 2] {
      abs[code] = AbsInfo(minimum: -32767, maximum: 32767, fuzz: 10, resolution: 4096)
    }
    for code: UInt16 in [3, 4, 5] {
      abs[code] = AbsInfo(minimum: -32_767_000, maximum: 32_767_000, fuzz: 10, resolution: 14247)
    }
    return DeviceInfo(
      name: name, id: DeviceID(bustype: bus, vendor: 0x057e, product: product, version: 0x8111),
      uniq: "98:b6:e9:00:00:01", phys: "usb-0000:00:14.0-3/input0", properties: accel,
      codes: [EventType.abs: [0, 1, 2, 3, 4, 5], EventType.msc: [MscCode.timestamp]],
      absInfo: abs)
  }

  /// Every IMU node name hid-nintendo gives, with its product id.
  static let nintendoIMUs: [(String, UInt16)] = [
    ("Nintendo Switch Pro Controller IMU", 0x2009),
    ("Nintendo Switch Left Joy-Con IMU", 0x2006),
    ("Nintendo Switch Right Joy-Con IMU", 0x2007),
    ("Nintendo Switch Left Joy-Con IMU (Grip)", 0x200e),
    ("Nintendo Switch Right Joy-Con IMU (Grip)", 0x200e),
  ]

  /// The right Joy-Con's gamepad node: its stick on ABS_RX/ABS_RY, its buttons.
  static let rightJoyConGamepad = DeviceInfo(
    name: "Nintendo Switch Right Joy-Con",
    id: DeviceID(bustype: 5, vendor: 0x057e, product: 0x2007, version: 0x8001),
    uniq: "98:b6:e9:00:00:02",
    codes: [
      EventType.abs: [3, 4],
      EventType.key: [0x13b, 0x13c, 0x13e, 0x130, 0x131, 0x133, 0x134, 0x136, 0x138, 0x137, 0x139],
    ],
    absInfo: [
      3: AbsInfo(minimum: -32767, maximum: 32767, fuzz: 250, flat: 500),
      4: AbsInfo(minimum: -32767, maximum: 32767, fuzz: 250, flat: 500),
    ])

  /// A "Motion Sensors" node of hid-playstation or hid-sony (DualShock 4).
  static func playStationMotion(
    _ name: String, product: UInt16, phys: String = "", driver: String = ""
  ) -> DeviceInfo {
    var abs: [UInt16: AbsInfo] = [:]
    for code: UInt16 in [0, 1, 2] {
      abs[code] = AbsInfo(minimum: -32768, maximum: 32768, fuzz: 16, resolution: 8192)
    }
    for code: UInt16 in [3, 4, 5] {
      abs[code] = AbsInfo(minimum: -2_097_152, maximum: 2_097_152, fuzz: 16, resolution: 1024)
    }
    return DeviceInfo(
      name: name, id: DeviceID(bustype: 3, vendor: 0x054c, product: product, version: 0x8100),
      uniq: "a0:ab:51:00:00:01", phys: phys, properties: accel,
      codes: [EventType.abs: [0, 1, 2, 3, 4, 5], EventType.msc: [MscCode.timestamp]],
      absInfo: abs, driver: driver)
  }
}

@Suite struct DriverNodeTests {
  /// Pitch and roll (contract §1.5) of a card whose up-vector in card coordinates is f.
  static func pitchRoll(_ f: SIMD3<Double>) -> (pitch: Double, roll: Double) {
    let degrees = 180 / Double.pi
    return (
      atan2(f.y, (f.x * f.x + f.z * f.z).squareRoot()) * degrees, atan2(-f.x, f.z) * degrees
    )
  }

  /// The up-vector in card coordinates of a card at `pitch` and `roll` degrees
  /// (R = Rx(pitch)·Ry(roll), no yaw): the third row of R.
  static func upVector(pitch: Double, roll: Double) -> SIMD3<Double> {
    let p = pitch * .pi / 180
    let r = roll * .pi / 180
    return SIMD3(-cos(p) * sin(r), sin(p), cos(p) * cos(r))
  }

  @Test(arguments: DriverNodes.nintendoIMUs.map { $0.0 })
  func everyNintendoIMUNodeGetsTheNintendoFrame(name: String) {
    let product = DriverNodes.nintendoIMUs.first { $0.0 == name }!.1
    let profile = DeviceProfile.classify(DriverNodes.nintendoIMU(name, product: product))
    #expect(profile.kind == .imu)
    #expect(profile.quirk == "nintendo-imu", "\(profile.reason)")
    #expect(profile.accelResolution == 4096)
    #expect(profile.gyroResolution == 14247)
    #expect(profile.timestamps == .msc)
    // Nintendo axes (x toward the triggers, y left, z up) → card (x right, y top, z out).
    #expect(profile.deviceToCard.apply([1, 0, 0]) == [0, 1, 0])
    #expect(profile.deviceToCard.apply([0, 1, 0]) == [-1, 0, 0])
    #expect(profile.deviceToCard.apply([0, 0, 1]) == [0, 0, 1])
  }

  /// A made-up motion (pitch and roll sweeping through ±40°), written as a
  /// Joy-Con in the charging grip reports it, comes out at the same pitch and
  /// roll (before the fix the grip node kept the identity frame: 18.8° RMS off).
  @Test func aMotionThroughAGripIMUNodeComesOutInTheCardFrame() throws {
    let info = DriverNodes.nintendoIMU("Nintendo Switch Left Joy-Con IMU (Grip)", product: 0x200e)
    var decoder = SampleDecoder(profile: .classify(info))
    var builder = FrameBuilder()
    var squaredError = 0.0
    var count = 0
    for i in 0..<400 {
      let t = Double(i) * 0.005
      let pitch = 40 * sin(2 * .pi * 0.7 * t)
      let roll = 35 * sin(2 * .pi * 0.45 * t + 1)
      let card = Self.upVector(pitch: pitch, roll: roll)
      // Card → Nintendo device axes, from contract §1.3's words: device x is the
      // card's top edge, device y its left edge, device z out of its face.
      let device = SIMD3(card.y, -card.x, card.z)
      let raw = (device * 4096).rounded(.toNearestOrEven)
      let frame = builder.frame(
        after: 5000,
        [
          (EventType.abs, 0, Int32(raw.x)), (EventType.abs, 1, Int32(raw.y)),
          (EventType.abs, 2, Int32(raw.z)), (EventType.msc, MscCode.timestamp, Int32(i * 5000)),
        ])
      let sample = try required(decoder.decode(frame))
      let out = Self.pitchRoll(try #require(sample.acceleration))
      squaredError +=
        (out.pitch - pitch) * (out.pitch - pitch) + (out.roll - roll) * (out.roll - roll)
      count += 1
    }
    let rms = (squaredError / Double(count)).squareRoot()
    #expect(rms < 0.05, "RMS error \(rms)°")
  }

  @Test func aNintendoNameWithoutTheDriversIdsGetsNoNintendoFrame() {
    var info = DriverNodes.nintendoIMU("Nintendo Switch Pro Controller IMU", product: 0x2009)
    info.id = DeviceID(bustype: 6, vendor: 0, product: 0, version: 1)  // a uinput imitation
    let profile = DeviceProfile.classify(info)
    #expect(profile.kind == .imu)
    #expect(profile.quirk == nil)
    #expect(profile.deviceToCard == .identity)
  }

  @Test func theRightJoyConsGamepadNodeHasItsStickOnRXRY() {
    let profile = DeviceProfile.classify(DriverNodes.rightJoyConGamepad)
    #expect(profile.inputClasses.contains(.joystick))
    #expect(profile.kind == .unsupported)
    #expect(!profile.reason.contains("no absolute axes"), "\(profile.reason)")
    #expect(profile.reason.contains("ABS_RX/ABS_RY"), "\(profile.reason)")
    #expect(profile.buttons.contains(ButtonCode.south))
  }

  @Test(arguments: [
    ("sony", "hid-sony", "hid-playstation"), ("playstation", "hid-playstation", "hid-sony"),
  ])
  func aDualShock4NamesTheDriverThatRunsIt(driver: String, says: String, never: String) {
    let info = DriverNodes.playStationMotion(
      "Sony Interactive Entertainment Wireless Controller Motion Sensors", product: 0x09cc,
      phys: "usb-0000:00:14.0-2/input3", driver: driver)
    let profile = DeviceProfile.classify(info)
    #expect(profile.quirk == "playstation-motion")
    #expect(profile.reason.contains("DualShock 4 motion node (\(says),"), "\(profile.reason)")
    #expect(!profile.reason.contains(never), "\(profile.reason)")
  }

  @Test func aDualShock4DescriptionWithoutADriverNamesBoth() {
    let info = DriverNodes.playStationMotion(
      "Sony Interactive Entertainment Wireless Controller Motion Sensors", product: 0x05c4)
    let reason = DeviceProfile.classify(info).reason
    #expect(reason.contains("hid-sony up to Linux 6.1, hid-playstation from 6.2"), "\(reason)")
  }

  @Test func aDualSenseIsHidPlaystations() {
    let info = DriverNodes.playStationMotion(
      "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors",
      product: 0x0ce6)
    let profile = DeviceProfile.classify(info)
    #expect(profile.reason.contains("DualSense motion node (hid-playstation,"))
    #expect(profile.deviceToCard.apply([0, 1, 0]) == [0, 0, 1])  // lying flat: face up
  }

  @Test func theSteamDeckIsKnownByItsIds() {
    var info = DriverNodes.playStationMotion("Steam Deck Motion Sensors", product: 0x1205)
    info.id.vendor = 0x28de
    info.name = "Valve Software Steam Deck Controller Motion Sensors"
    let profile = DeviceProfile.classify(info)
    #expect(profile.quirk == "steam-deck-motion")
    #expect(profile.deviceToCard.apply([0, 1, 0]) == [0, 0, 1])
  }
}
