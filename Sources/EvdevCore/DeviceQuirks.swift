/// Facts from the kernel drivers that a device's description does not carry:
/// resolutions a driver leaves out, axes it moves, and the orientation of its
/// axes relative to the card (SPEC §1).
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

  /// The quirk that matches a device, by the name and vendor its driver gives it.
  static func matching(_ info: DeviceInfo) -> DeviceQuirk? {
    let name = info.name
    let vendor = info.id.vendor
    let motionNode = name.hasSuffix("Motion Sensors")
    if motionNode && name.contains("PLAYSTATION(R)3") {
      // hid-sony: SIXAXIS_ACC_RES_PER_G.
      return DeviceQuirk(
        name: "playstation3-motion", accelResolution: 113, gyroResolution: nil,
        deviceToCard: playStationToCard,
        note: "PlayStation 3 motion node (hid-sony, 113 units/g, no gyroscope)")
    }
    if motionNode && (vendor == 0x28de || name.hasPrefix("Steam Deck")) {
      // hid-steam: STEAM_DECK_ACCEL_RES_PER_G, STEAM_DECK_GYRO_RES_PER_DPS.
      return DeviceQuirk(
        name: "steam-deck-motion", accelResolution: 16384, gyroResolution: 16,
        deviceToCard: playStationToCard,
        note: "Steam Deck motion node (hid-steam, 16384 units/g, 16 units/(deg/s))")
    }
    if motionNode && vendor == 0x054c {
      // hid-playstation: DS_ACC_RES_PER_G, DS_GYRO_RES_PER_DEG_S (DualSense and
      // DualShock 4 alike).
      return DeviceQuirk(
        name: "playstation-motion", accelResolution: 8192, gyroResolution: 1024,
        deviceToCard: playStationToCard,
        note: "PlayStation motion node (hid-playstation, 8192 units/g, 1024 units/(deg/s))")
    }
    if name.hasPrefix("Nintendo Switch") && name.hasSuffix("IMU") {
      // hid-nintendo: JC_IMU_ACCEL_RES_PER_G; JC_IMU_GYRO_RES_PER_DPS is
      // 14.247 units/(deg/s) scaled by JC_IMU_PREC_RANGE_SCALE (1000).
      return DeviceQuirk(
        name: "nintendo-imu", accelResolution: 4096, gyroResolution: 14247,
        deviceToCard: playStationToCard.after(nintendoToPlayStation),
        note: "Nintendo IMU node (hid-nintendo, 4096 units/g, 14247 units/(deg/s))")
    }
    if name == "Nintendo Wii Remote Accelerometer" {
      // hid-wiimote reports the remote's 10-bit ADXL330 counts less 0x200 on
      // ABS_RX/RY/RZ (range ±500) with no resolution; the remote's own
      // calibration puts 1 g about 100 counts from zero.
      return DeviceQuirk(
        name: "wii-remote-accelerometer", accelResolution: 100, gyroResolution: nil,
        accelAxes: [AbsCode.rx, AbsCode.ry, AbsCode.rz], deviceToCard: .identity,
        note: "Wii Remote accelerometer (hid-wiimote, ABS_RX/RY/RZ, about 100 units/g)")
    }
    if name == "ST LIS3LV02DL Accelerometer" {
      // lis3lv02d reports milli-g and sets no resolution.
      return DeviceQuirk(
        name: "lis3lv02dl", accelResolution: 1000, gyroResolution: nil,
        deviceToCard: .identity, note: "ST LIS3LV02DL laptop accelerometer (milli-g)")
    }
    return nil
  }
}
