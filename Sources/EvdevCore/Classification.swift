/// What a device can do for the card.
public enum DeviceKind: String, Hashable, Sendable {
  /// Accelerometer and gyroscope (`INPUT_PROP_ACCELEROMETER` with `ABS_RX/RY/RZ`).
  case imu
  /// Accelerometer only.
  case accelerometer
  /// A stick (`ABS_X`/`ABS_Y`) that stands in for tilt (SPEC §2).
  case joystick
  case unsupported
}

/// Which clock times a device's samples.
public enum TimestampSource: String, Hashable, Sendable {
  /// `MSC_TIMESTAMP`: the device's own µs counter (32-bit, wraps).
  case msc
  /// The kernel's event time.
  case event
}

/// How to turn a device's events into motion: what it is, its units, its axes
/// and its orientation relative to the card.
public struct DeviceProfile: Hashable, Sendable {
  public var kind: DeviceKind
  /// Accelerometer units per g; nil for a joystick or an unsupported device.
  public var accelResolution: Double?
  /// Gyroscope units per degree per second; nil without a gyroscope.
  public var gyroResolution: Double?
  public var timestamps: TimestampSource
  /// Device frame → card frame (SPEC §1), for accelerometer and gyroscope.
  public var deviceToCard: MountMatrix
  /// The accelerometer's three `ABS_*` codes (x, y, z), or for a joystick the
  /// stick's two (`ABS_X`, `ABS_Y`); empty when unsupported.
  public var accelAxes: [UInt16]
  /// The gyroscope's three `ABS_*` codes, or nil.
  public var gyroAxes: [UInt16]?
  /// The name of the quirk applied from the driver facts, if any.
  public var quirk: String?
  /// A one-line description, or why the device cannot drive the card.
  public var reason: String
  /// The `BTN_*` codes the device has (codes from `BTN_MISC` up).
  public var buttons: Set<UInt16>
  /// The ranges of the axes in `accelAxes` and `gyroAxes`.
  public var axisInfo: [UInt16: AbsInfo]

  public init(
    kind: DeviceKind, accelResolution: Double?, gyroResolution: Double?,
    timestamps: TimestampSource, deviceToCard: MountMatrix, accelAxes: [UInt16],
    gyroAxes: [UInt16]?, quirk: String?, reason: String, buttons: Set<UInt16>,
    axisInfo: [UInt16: AbsInfo]
  ) {
    self.kind = kind
    self.accelResolution = accelResolution
    self.gyroResolution = gyroResolution
    self.timestamps = timestamps
    self.deviceToCard = deviceToCard
    self.accelAxes = accelAxes
    self.gyroAxes = gyroAxes
    self.quirk = quirk
    self.reason = reason
    self.buttons = buttons
    self.axisInfo = axisInfo
  }
}

extension DeviceProfile {
  static let xyz: [UInt16] = [AbsCode.x, AbsCode.y, AbsCode.z]
  static let rxyz: [UInt16] = [AbsCode.rx, AbsCode.ry, AbsCode.rz]
  static let touchCodes: [UInt16] = [
    UInt16(BTN_TOUCH), UInt16(BTN_TOOL_PEN), UInt16(BTN_TOOL_FINGER), UInt16(BTN_STYLUS),
  ]

  /// Classifies a device the way udev's input_id builtin and SDL do, plus the
  /// driver facts of ``DeviceQuirk``:
  /// - a quirk's node (matched by name and vendor) gets the quirk's axes, units
  ///   and orientation;
  /// - `INPUT_PROP_ACCELEROMETER` → accelerometer, or imu with `ABS_RX/RY/RZ`;
  /// - `ABS_X/Y/Z` and no keys → accelerometer;
  /// - `ABS_X/Y` without the accelerometer property, touch or pen → joystick;
  /// - anything else is unsupported, with the reason.
  ///
  /// Resolutions: the axis's own resolution wins; else the quirk's; else, for
  /// an accelerometer, `maximum / 2` units per g (a guess that the range is
  /// ±2 g, said in `reason`).
  ///
  /// - Parameter mountMatrix: replaces the default device → card matrix: the
  ///   user's `--mount-matrix`, or a plain accelerometer's `ACCEL_MOUNT_MATRIX`.
  public static func classify(_ info: DeviceInfo, mountMatrix: MountMatrix? = nil) -> DeviceProfile
  {
    let quirk = DeviceQuirk.matching(info)
    let hasAbs = { (code: UInt16) in info.has(type: EventType.abs, code: code) }
    let accelProperty = info.has(property: InputProperty.accelerometer)
    let keys = info.codes[EventType.key] ?? []
    let buttons = Buttons.codes(of: info)
    let timestamps: TimestampSource =
      info.has(type: EventType.msc, code: MscCode.timestamp) ? .msc : .event

    func profile(
      _ kind: DeviceKind, accel: [UInt16] = [], gyro: [UInt16]? = nil, accelRes: Double? = nil,
      gyroRes: Double? = nil, frame: MountMatrix = .identity, reason: String
    ) -> DeviceProfile {
      var axisInfo: [UInt16: AbsInfo] = [:]
      for code in accel + (gyro ?? []) { axisInfo[code] = info.absInfo[code] }
      return DeviceProfile(
        kind: kind, accelResolution: accelRes, gyroResolution: gyroRes, timestamps: timestamps,
        deviceToCard: mountMatrix ?? frame, accelAxes: accel, gyroAxes: gyro,
        quirk: kind == .unsupported ? nil : quirk?.name, reason: reason, buttons: buttons,
        axisInfo: axisInfo)
    }
    func unsupported(_ why: String) -> DeviceProfile { profile(.unsupported, reason: why) }
    func badRange(_ axes: [UInt16]) -> UInt16? {
      axes.first { code in
        guard let abs = info.absInfo[code] else { return true }
        return abs.minimum >= abs.maximum
      }
    }
    func resolution(_ axes: [UInt16]) -> Double? {
      guard let r = info.absInfo[axes[0]]?.resolution, r > 0 else { return nil }
      return Double(r)
    }

    let accelAxes = quirk?.accelAxes ?? xyz
    let isMotion = accelProperty || quirk != nil || (accelAxes.allSatisfy(hasAbs) && keys.isEmpty)
    if isMotion {
      guard accelAxes.allSatisfy(hasAbs) else {
        let names = accelAxes.map { axisName($0) }.joined(separator: "/")
        return unsupported(
          "an accelerometer node without \(names); the driver reports no usable axes")
      }
      if let bad = badRange(accelAxes) {
        return unsupported("\(axisName(bad)) has no valid range (minimum ≥ maximum)")
      }
      var notes: [String] = []
      if let quirk { notes.append(quirk.note) }
      var accelRes = resolution(accelAxes) ?? quirk?.accelResolution
      if accelRes == nil {
        let max = Double(info.absInfo[accelAxes[0]]!.maximum)
        accelRes = Swift.max(max / 2, 1)
        notes.append(
          "no resolution reported: assumed \(Int(accelRes!)) units/g (maximum/2, a ±2 g range)")
      }
      var gyroAxes: [UInt16]? = nil
      var gyroRes: Double? = nil
      let hasGyroAxes = rxyz.allSatisfy(hasAbs) && !accelAxes.contains(AbsCode.rx)
      if hasGyroAxes && (accelProperty || quirk?.gyroResolution != nil) {
        if let res = resolution(rxyz) ?? quirk?.gyroResolution, badRange(rxyz) == nil {
          gyroAxes = rxyz
          gyroRes = res
        } else {
          notes.append("gyroscope ignored: no resolution or no valid range")
        }
      }
      let kind: DeviceKind = gyroAxes == nil ? .accelerometer : .imu
      let summary = kind == .imu ? "accelerometer and gyroscope" : "accelerometer"
      return profile(
        kind, accel: accelAxes, gyro: gyroAxes, accelRes: accelRes, gyroRes: gyroRes,
        frame: quirk?.deviceToCard ?? .identity,
        reason: ([summary] + notes).joined(separator: "; "))
    }

    guard hasAbs(AbsCode.x) && hasAbs(AbsCode.y) else {
      if info.has(type: EventType.rel) {
        return unsupported("relative axes only (a mouse or similar); no tilt to read")
      }
      if !keys.isEmpty {
        return unsupported("keys or buttons only (no absolute axes); no tilt to read")
      }
      return unsupported("no accelerometer, no gyroscope and no stick")
    }
    // Not ABS_MT_*: old gamepad drivers put pressure axes on those codes.
    if touchCodes.contains(where: { keys.contains($0) }) {
      return unsupported("a touch or pen surface (ABS_X/Y are positions, not a stick)")
    }
    if let bad = badRange([AbsCode.x, AbsCode.y]) {
      return unsupported("\(axisName(bad)) has no valid range (minimum ≥ maximum)")
    }
    return profile(
      .joystick, accel: [AbsCode.x, AbsCode.y],
      reason: "stick ABS_X/ABS_Y acts as tilt (full deflection = stick range)")
  }

  static func axisName(_ code: UInt16) -> String {
    if let name = EventNames.codeName(type: EventType.abs, code: code) {
      return name
    }
    return "ABS_0x\(String(code, radix: 16))"
  }
}
