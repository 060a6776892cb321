import TestTools
import Testing

@testable import SensorData

/// Fake device descriptions, built as the kernel drivers describe them.
enum FakeDevices {
  static let accelProp: Set<UInt16> = [InputProperty.accelerometer]
  static let xyz: Set<UInt16> = [0, 1, 2]
  static let imuAxes: Set<UInt16> = [0, 1, 2, 3, 4, 5]
  static let msc: Set<UInt16> = [MscCode.timestamp]

  static func axes(
    _ codes: [UInt16], min: Int32, max: Int32, res: Int32 = 0, flat: Int32 = 0
  ) -> [UInt16: AbsInfo] {
    Dictionary(
      uniqueKeysWithValues: codes.map {
        ($0, AbsInfo(minimum: min, maximum: max, flat: flat, resolution: res))
      })
  }

  static func motionNode(
    _ name: String, vendor: UInt16, product: UInt16, accelRes: Int32, gyroRes: Int32?,
    accelMax: Int32 = 32768, gyroMax: Int32 = 2_097_152
  ) -> DeviceInfo {
    var abs = axes([0, 1, 2], min: -accelMax, max: accelMax, res: accelRes)
    var codes: [UInt16: Set<UInt16>] = [EventType.abs: xyz, EventType.msc: msc]
    if let gyroRes {
      abs.merge(axes([3, 4, 5], min: -gyroMax, max: gyroMax, res: gyroRes)) { a, _ in a }
      codes[EventType.abs] = imuAxes
    }
    return DeviceInfo(
      name: name, id: DeviceID(bustype: 5, vendor: vendor, product: product, version: 0x8100),
      properties: accelProp, codes: codes, absInfo: abs)
  }

  static let dualSense = motionNode(
    "DualSense Wireless Controller Motion Sensors", vendor: 0x054c, product: 0x0ce6,
    accelRes: 8192, gyroRes: 1024)
  static let dualShock4 = motionNode(
    "Sony Interactive Entertainment Wireless Controller Motion Sensors", vendor: 0x054c,
    product: 0x09cc, accelRes: 8192, gyroRes: 1024)
  static let steamDeck = motionNode(
    "Steam Deck Motion Sensors", vendor: 0x28de, product: 0x1205, accelRes: 16384, gyroRes: 16)
  static let switchPro = motionNode(
    "Nintendo Switch Pro Controller IMU", vendor: 0x057e, product: 0x2009, accelRes: 4096,
    gyroRes: 14247,
    accelMax: 32767, gyroMax: 32_767_000)
  static let ps3Motion = motionNode(
    "Sony PLAYSTATION(R)3 Controller Motion Sensors", vendor: 0x054c, product: 0x0268,
    accelRes: 113, gyroRes: nil,
    accelMax: 512)
  static let wiiAccel = DeviceInfo(
    name: "Nintendo Wii Remote Accelerometer",
    id: DeviceID(bustype: 5, vendor: 0x057e, product: 0x0306, version: 0x600),
    codes: [EventType.abs: [3, 4, 5]], absInfo: axes([3, 4, 5], min: -500, max: 500))
  static let lis3 = DeviceInfo(
    name: "ST LIS3LV02DL Accelerometer",
    id: DeviceID(bustype: 0x19, vendor: 0, product: 0, version: 0),
    codes: [EventType.abs: xyz], absInfo: axes([0, 1, 2], min: -2304, max: 2304))
  static let tablet = DeviceInfo(
    name: "Tablet Accelerometer", properties: accelProp, codes: [EventType.abs: xyz],
    absInfo: axes([0, 1, 2], min: -512, max: 512, res: 256))
  static let plainAccel = DeviceInfo(
    name: "Some Accelerometer", codes: [EventType.abs: xyz],
    absInfo: axes([0, 1, 2], min: -2048, max: 2048))
  static let xboxPad = DeviceInfo(
    name: "Microsoft X-Box 360 pad",
    id: DeviceID(bustype: 3, vendor: 0x045e, product: 0x028e, version: 0x114),
    codes: [
      EventType.abs: [0, 1, 2, 3, 4, 5, 16, 17],
      EventType.key: [
        ButtonCode.south, ButtonCode.east, 307, 308, 310, 311, 314, 315, 316, 317, 318,
      ],
    ],
    absInfo: axes([0, 1, 3, 4], min: -32768, max: 32767, flat: 128)
      .merging(axes([2, 5], min: 0, max: 255)) { a, _ in a }
      .merging(axes([16, 17], min: -1, max: 1)) { a, _ in a })
  static let keyboard = DeviceInfo(
    name: "AT Translated Set 2 keyboard", codes: [EventType.key: Set(1...120), EventType.msc: [4]])
  static let touchpad = DeviceInfo(
    name: "Touchpad",
    codes: [EventType.abs: [0, 1, 0x35, 0x36], EventType.key: [UInt16(BTN_TOUCH), 0x110]],
    absInfo: axes([0, 1, 0x35, 0x36], min: 0, max: 4000))
}

@Suite struct ClassificationTests {
  struct Expected: Sendable, CustomStringConvertible {
    var info: DeviceInfo
    var kind: DeviceKind
    var accel: Double?
    var gyro: Double?
    var quirk: String?
    var timestamps: TimestampSource
    var description: String { info.name }
  }

  static let table: [Expected] = [
    Expected(
      info: FakeDevices.dualSense, kind: .imu, accel: 8192, gyro: 1024, quirk: "playstation-motion",
      timestamps: .msc),
    Expected(
      info: FakeDevices.dualShock4, kind: .imu, accel: 8192, gyro: 1024,
      quirk: "playstation-motion", timestamps: .msc),
    Expected(
      info: FakeDevices.steamDeck, kind: .imu, accel: 16384, gyro: 16, quirk: "steam-deck-motion",
      timestamps: .msc),
    Expected(
      info: FakeDevices.switchPro, kind: .imu, accel: 4096, gyro: 14247, quirk: "nintendo-imu",
      timestamps: .msc),
    Expected(
      info: FakeDevices.ps3Motion, kind: .accelerometer, accel: 113, gyro: nil,
      quirk: "playstation3-motion", timestamps: .msc),
    Expected(
      info: FakeDevices.wiiAccel, kind: .accelerometer, accel: 100, gyro: nil,
      quirk: "wii-remote-accelerometer", timestamps: .event),
    Expected(
      info: FakeDevices.lis3, kind: .accelerometer, accel: 1000, gyro: nil, quirk: "lis3lv02dl",
      timestamps: .event),
    Expected(
      info: FakeDevices.tablet, kind: .accelerometer, accel: 256, gyro: nil, quirk: nil,
      timestamps: .event),
    Expected(
      info: FakeDevices.plainAccel, kind: .accelerometer, accel: 1024, gyro: nil, quirk: nil,
      timestamps: .event),
    Expected(
      info: FakeDevices.xboxPad, kind: .joystick, accel: nil, gyro: nil, quirk: nil,
      timestamps: .event),
    Expected(
      info: FakeDevices.keyboard, kind: .unsupported, accel: nil, gyro: nil, quirk: nil,
      timestamps: .event),
    Expected(
      info: FakeDevices.touchpad, kind: .unsupported, accel: nil, gyro: nil, quirk: nil,
      timestamps: .event),
  ]

  @Test(arguments: table)
  func classifies(_ e: Expected) {
    let profile = DeviceProfile.classify(e.info)
    #expect(profile.kind == e.kind, "\(profile.reason)")
    #expect(profile.accelResolution == e.accel)
    #expect(profile.gyroResolution == e.gyro)
    #expect(profile.quirk == e.quirk)
    #expect(profile.timestamps == e.timestamps)
    #expect(!profile.reason.isEmpty)
  }

  @Test func quirkResolutionAppliesWhenTheAxesReportNone() {
    var info = FakeDevices.dualSense
    for code in info.absInfo.keys { info.absInfo[code]!.resolution = 0 }
    let profile = DeviceProfile.classify(info)
    #expect(profile.accelResolution == 8192)
    #expect(profile.gyroResolution == 1024)
  }

  @Test func absinfoResolutionWinsOverTheQuirk() {
    var info = FakeDevices.dualSense
    for code: UInt16 in [0, 1, 2] { info.absInfo[code]!.resolution = 4000 }
    #expect(DeviceProfile.classify(info).accelResolution == 4000)
  }

  @Test func heuristicResolutionIsSaidInTheReason() {
    let profile = DeviceProfile.classify(FakeDevices.plainAccel)
    #expect(profile.reason.contains("no resolution reported"))
    #expect(profile.reason.contains("1024 units/g"))
  }

  @Test func wiiRemoteUsesItsRAxes() {
    let profile = DeviceProfile.classify(FakeDevices.wiiAccel)
    #expect(profile.accelAxes == [AbsCode.rx, AbsCode.ry, AbsCode.rz])
    #expect(profile.gyroAxes == nil)
  }

  @Test func playStationFrameMapsLyingFlatToFaceUp() {
    // A DualSense lying flat reads +1 g on its y axis (up out of the face).
    let m = DeviceProfile.classify(FakeDevices.dualSense).deviceToCard
    #expect(m.apply([0, 1, 0]) == [0, 0, 1])
    #expect(m.apply([1, 0, 0]) == [1, 0, 0])
    #expect(m.apply([0, 0, 1]) == [0, -1, 0])
  }

  @Test func nintendoFrameGoesThroughThePlayStationConvention() {
    // Nintendo axes: x toward the triggers, y left, z up.
    let m = DeviceProfile.classify(FakeDevices.switchPro).deviceToCard
    #expect(m.apply([0, 0, 1]) == [0, 0, 1])  // lying flat: face up
    #expect(m.apply([0, -1, 0]) == [1, 0, 0])  // right is card +x
    #expect(m.apply([1, 0, 0]) == [0, 1, 0])  // triggers are the card's top edge
  }

  @Test func mountMatrixReplacesTheDefault() throws {
    let flip = try MountMatrix(parsing: "-1, 0, 0; 0, -1, 0; 0, 0, 1")
    let profile = DeviceProfile.classify(FakeDevices.tablet, mountMatrix: flip)
    #expect(profile.deviceToCard == flip)
  }

  @Test func buttonsOfAPadAreListed() {
    let profile = DeviceProfile.classify(FakeDevices.xboxPad)
    #expect(profile.buttons.contains(ButtonCode.south))
    #expect(profile.buttons.count == 11)
    #expect(profile.accelAxes == [AbsCode.x, AbsCode.y])
    #expect(DeviceProfile.classify(FakeDevices.keyboard).buttons.isEmpty)
  }

  @Test func accelerometerWithoutAxesIsUnsupported() {
    let info = DeviceInfo(
      name: "Broken Motion Sensors", properties: FakeDevices.accelProp,
      codes: [EventType.abs: [0, 1]])
    let profile = DeviceProfile.classify(info)
    #expect(profile.kind == .unsupported)
    #expect(profile.reason.contains("no usable axes"))
  }

  @Test func invertedRangeIsUnsupported() {
    var info = FakeDevices.tablet
    info.absInfo[1] = AbsInfo(minimum: 10, maximum: -10)
    let profile = DeviceProfile.classify(info)
    #expect(profile.kind == .unsupported)
    #expect(profile.reason.contains("ABS_Y has no valid range"))
  }

  @Test(.needsSharedData()) func recordingsInTheSharedDataClassify() throws {
    do {
      let path = try TestData.path("recordings/mad-catz-xbox360-sticks.evemu")
      #expect(DeviceProfile.classify(try EvemuReader(path: path).info).kind == .joystick)
    }
    do {
      let path = try TestData.path("recordings/sony-ps3-controller.desc")
      #expect(DeviceProfile.classify(try EvemuReader(path: path).info).kind == .joystick)
    }
    do {
      let path = try TestData.path("recordings/nintendo-wiimote.desc")
      let profile = DeviceProfile.classify(try EvemuReader(path: path).info)
      #expect(profile.kind == .unsupported)
      #expect(profile.reason.contains("keys or buttons only"))
    }
    do {
      let path = try TestData.path("broad/broad02_window36-56s_as_dualsense_motion.evemu")
      let profile = DeviceProfile.classify(try EvemuReader(path: path).info)
      #expect(profile.kind == .imu)
      #expect(profile.accelResolution == 8192)
      #expect(profile.gyroResolution == 1024)
      #expect(profile.timestamps == .msc)
    }
  }
}

@Suite struct MountMatrixTests {
  @Test func parsesUdevSyntax() throws {
    let m = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
    #expect(m.rows == [[0, 1, 0], [-1, 0, 0], [0, 0, 1]])
    #expect(m.apply([1, 2, 3]) == [2, -1, 3])
    #expect(try MountMatrix(parsing: "  1,0,0 ;0,1,0;0 ,0, 1 ") == .identity)
    #expect(try MountMatrix(parsing: "0.5, 0, 0; 0, 1, 0; 0, 0, 1e0").rows[0].x == 0.5)
  }

  @Test(arguments: [
    ("1, 0, 0; 0, 1, 0", "has 2 rows, needs 3"),
    ("", "has 1 row, needs 3"),
    ("1, 0; 0, 1, 0; 0, 0, 1", "row 1 has 2 numbers, needs 3"),
    ("1, 0, 0; 0, 1, 0, 0; 0, 0, 1", "row 2 has 4 numbers"),
    ("1, 0, 0; 0, x, 0; 0, 0, 1", "'x' in row 2 is not a number"),
    ("1, 0, 0; 0, 1, 0; 0, , 1", "'' in row 3 is not a number"),
    ("1, 0, 0; 0, 1, 0; 0, 0, nan", "'nan' in row 3 is not finite"),
    ("1, 0, 0; 0, 1, 0; 0, 0, inf", "not finite"),
  ])
  func rejectsMalformedText(text: String, message: String) {
    let error = #expect(throws: MountMatrixError.self) { try MountMatrix(parsing: text) }
    #expect(error?.description.contains(message) == true, "\(error?.description ?? "")")
    #expect(error?.description.contains("1, 0, 0; 0, 1, 0; 0, 0, 1") == true)
  }

  @Test func composition() throws {
    let rotate = try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")
    let flip = try MountMatrix(parsing: "1, 0, 0; 0, -1, 0; 0, 0, -1")
    let v: SIMD3<Double> = [1, 2, 3]
    #expect(flip.after(rotate).apply(v) == flip.apply(rotate.apply(v)))
    #expect(MountMatrix.identity.after(rotate) == rotate)
    #expect(rotate.after(rotate).after(rotate).after(rotate) == .identity)
  }

  @Test func descriptionRoundTrips() throws {
    let m = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 0.5")
    #expect(m.description == "0, 1, 0; -1, 0, 0; 0, 0, 0.5")
    #expect(try MountMatrix(parsing: m.description) == m)
  }
}
