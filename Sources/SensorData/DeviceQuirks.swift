/// Facts from the kernel drivers that a device's description does not carry:
/// resolutions a driver leaves out, axes it moves, and the orientation of its
/// axes relative to the card (contract §1.3).
struct DeviceQuirk: Sendable {
  var name: String
  /// Units per g when the axes report no resolution.
  var accelResolution: Double
  /// Units per degree per second when the gyroscope axes report none; nil
  /// when the node has no gyroscope.
  var gyroResolution: Double?
  var accelAxes: [UInt16] = [AbsCode.x, AbsCode.y, AbsCode.z]
  var deviceToCard: MountMatrix
  var note: String

  /// PlayStation and Steam Deck "Motion Sensors" nodes: x right, y up out of
  /// the face, z toward the player; card = (x, −z, y).
  static let playStationToCard = MountMatrix([1, 0, 0], [0, 0, -1], [0, 1, 0])
  /// Nintendo IMU nodes (x toward the triggers, y left, z up) to the
  /// PlayStation convention: (−y, z, −x).
  static let nintendoToPlayStation = MountMatrix([0, -1, 0], [0, 0, 1], [-1, 0, 0])

  /// Vendor ids (`struct input_id`) of the drivers below.
  static let sony: UInt16 = 0x054c
  static let nintendo: UInt16 = 0x057e
  static let valve: UInt16 = 0x28de

  /// hid-nintendo's products (`USB_DEVICE_ID_NINTENDO_*`): Joy-Con left and
  /// right, Pro Controller, charging grip. Each gets an IMU node named
  /// "… IMU" or, in the grip, "… IMU (Grip)"; the node copies the HID
  /// device's ids.
  static let nintendoSwitchProducts: [UInt16: String] = [
    0x2006: "Joy-Con (L)", 0x2007: "Joy-Con (R)", 0x2009: "Pro Controller",
    0x200e: "Joy-Con in the charging grip",
  ]
  /// hid-sony's Sixaxis (DualShock 3).
  static let dualShock3: UInt16 = 0x0268
  /// DualShock 4 (first and second model, wireless adapter): hid-sony up to
  /// Linux 6.1, hid-playstation from 6.2.
  static let dualShock4Products: Set<UInt16> = [0x05c4, 0x09cc, 0x0ba0]
  /// DualSense and DualSense Edge: hid-playstation.
  static let dualSenseProducts: Set<UInt16> = [0x0ce6, 0x0df2]
  /// The Steam Deck's controller (hid-steam).
  static let steamDeck: UInt16 = 0x1205
  /// The Wii Remote and Wii Remote Plus (hid-wiimote).
  static let wiiRemoteProducts: Set<UInt16> = [0x0306, 0x0330]

  /// The quirk that matches a device, by what its driver sets: the ids it
  /// copies from the HID device, `INPUT_PROP_ACCELEROMETER`, the axes and their
  /// ranges (contract §1.3), never the end of its name. `DeviceInfo.driver`, when
  /// known, names the driver in the note.
  static func matching(_ info: DeviceInfo) -> DeviceQuirk? {
    let vendor = info.id.vendor
    let product = info.id.product
    let accelProperty = info.has(property: InputProperty.accelerometer)
    let abs = info.codes[EventType.abs] ?? []
    let xyz: Set<UInt16> = [AbsCode.x, AbsCode.y, AbsCode.z]
    let rxyz: Set<UInt16> = [AbsCode.rx, AbsCode.ry, AbsCode.rz]
    let motionAxes = accelProperty && xyz.isSubset(of: abs)

    if vendor == sony && product == dualShock3 && motionAxes {
      // hid-sony: SIXAXIS_ACC_RES_PER_G; the DualShock 3 has no gyroscope node.
      return DeviceQuirk(
        name: "playstation3-motion", accelResolution: 113, gyroResolution: nil,
        deviceToCard: playStationToCard,
        note:
          "DualShock 3 motion node (\(driverName(info, else: "hid-sony")), 113 units/g, no gyroscope)"
      )
    }
    if vendor == valve && product == steamDeck && motionAxes {
      // hid-steam: STEAM_DECK_ACCEL_RES_PER_G, STEAM_DECK_GYRO_RES_PER_DPS.
      return DeviceQuirk(
        name: "steam-deck-motion", accelResolution: 16384, gyroResolution: 16,
        deviceToCard: playStationToCard,
        note:
          "Steam Deck motion node (\(driverName(info, else: "hid-steam")), 16384 units/g, 16 units/(deg/s))"
      )
    }
    if vendor == sony
      && (dualSenseProducts.contains(product) || dualShock4Products.contains(product))
      && motionAxes
    {
      // hid-playstation: DS_ACC_RES_PER_G, DS_GYRO_RES_PER_DEG_S; hid-sony's
      // DS4_ACC_RES_PER_G and DS4_GYRO_RES_PER_DEG_S are the same numbers.
      let dualSense = dualSenseProducts.contains(product)
      let driver =
        dualSense
        ? driverName(info, else: "hid-playstation")
        : driverName(info, else: "hid-sony up to Linux 6.1, hid-playstation from 6.2")
      return DeviceQuirk(
        name: "playstation-motion", accelResolution: 8192, gyroResolution: 1024,
        deviceToCard: playStationToCard,
        note:
          "\(dualSense ? "DualSense" : "DualShock 4") motion node (\(driver), 8192 units/g, 1024 units/(deg/s))"
      )
    }
    if vendor == nintendo, let model = nintendoSwitchProducts[product], motionAxes {
      // hid-nintendo: JC_IMU_ACCEL_RES_PER_G; JC_IMU_GYRO_RES_PER_DPS is
      // 14.247 units/(deg/s) scaled by JC_IMU_PREC_RANGE_SCALE (1000).
      return DeviceQuirk(
        name: "nintendo-imu", accelResolution: 4096, gyroResolution: 14247,
        deviceToCard: playStationToCard.after(nintendoToPlayStation),
        note:
          "Nintendo Switch \(model) IMU node (\(driverName(info, else: "hid-nintendo")), 4096 units/g, 14247 units/(deg/s))"
      )
    }
    if vendor == nintendo && wiiRemoteProducts.contains(product) && !info.has(type: EventType.key)
      && abs == rxyz && rxyz.allSatisfy({ (info.absInfo[$0]?.maximum ?? 0) <= 500 })
    {
      // hid-wiimote's accelerometer node reports the remote's 10-bit ADXL330
      // counts less 0x200 on ABS_RX/RY/RZ (range ±500) with no resolution; the
      // remote's own calibration puts 1 g about 100 counts from zero. Its
      // Motion Plus node has the same axes with a range of ±16000.
      return DeviceQuirk(
        name: "wii-remote-accelerometer", accelResolution: 100, gyroResolution: nil,
        accelAxes: [AbsCode.rx, AbsCode.ry, AbsCode.rz], deviceToCard: .identity,
        note:
          "Wii Remote accelerometer (\(driverName(info, else: "hid-wiimote")), ABS_RX/RY/RZ, about 100 units/g)"
      )
    }
    if info.name == "ST LIS3LV02DL Accelerometer" && xyz.isSubset(of: abs) {
      // lis3lv02d sets this fixed name, no ids and no resolution; it reports
      // milli-g.
      return DeviceQuirk(
        name: "lis3lv02dl", accelResolution: 1000, gyroResolution: nil,
        deviceToCard: .identity, note: "ST LIS3LV02DL laptop accelerometer (lis3lv02d, milli-g)")
    }
    return nil
  }

  /// The driver as sysfs names its module (`hid-sony`), or `fallback` when
  /// the description does not say (a recording, a uinput device).
  static func driverName(_ info: DeviceInfo, else fallback: String) -> String {
    guard !info.driver.isEmpty else { return fallback }
    return info.driver.hasPrefix("hid-") ? info.driver : "hid-" + info.driver
  }
}
