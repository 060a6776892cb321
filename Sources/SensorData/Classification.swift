/// What a device can do for the card.
public enum DeviceKind: String, Hashable, Sendable {
  /// Accelerometer and gyroscope (`INPUT_PROP_ACCELEROMETER` with `ABS_RX/RY/RZ`).
  case imu
  /// Accelerometer only.
  case accelerometer
  /// A stick (`ABS_X`/`ABS_Y`) that stands in for tilt (contract §2.5).
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
  /// Device frame → card frame (contract §1.3), for accelerometer and gyroscope.
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
  /// What udev's `input_id` builtin calls the node (contract §2.5).
  public var inputClasses: InputClasses

  public init(
    kind: DeviceKind, accelResolution: Double?, gyroResolution: Double?,
    timestamps: TimestampSource, deviceToCard: MountMatrix, accelAxes: [UInt16],
    gyroAxes: [UInt16]?, quirk: String?, reason: String, buttons: Set<UInt16>,
    axisInfo: [UInt16: AbsInfo], inputClasses: InputClasses = []
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
    self.inputClasses = inputClasses
  }
}

/// What udev's `input_id` builtin makes of a node: the `ID_INPUT_*`
/// properties it sets (systemd `src/udev/udev-builtin-input_id.c`,
/// `test_pointers` and `test_key`), from the same capability bits.
///
/// The rules use the kernel's C names (InputEventCodes.swift), so that they
/// read like the C they follow.
public struct InputClasses: OptionSet, Hashable, Sendable {
  public let rawValue: UInt16
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// `ID_INPUT_ACCELEROMETER`
  public static let accelerometer = InputClasses(rawValue: 1 << 0)
  /// `ID_INPUT_JOYSTICK`
  public static let joystick = InputClasses(rawValue: 1 << 1)
  /// `ID_INPUT_MOUSE`, relative or absolute (a VM's USB tablet).
  public static let mouse = InputClasses(rawValue: 1 << 2)
  /// `ID_INPUT_TOUCHPAD`
  public static let touchpad = InputClasses(rawValue: 1 << 3)
  /// `ID_INPUT_TOUCHSCREEN`
  public static let touchscreen = InputClasses(rawValue: 1 << 4)
  /// `ID_INPUT_TABLET`
  public static let tablet = InputClasses(rawValue: 1 << 5)
  /// `ID_INPUT_TABLET_PAD`
  public static let tabletPad = InputClasses(rawValue: 1 << 6)
  /// `ID_INPUT_POINTINGSTICK`
  public static let pointingStick = InputClasses(rawValue: 1 << 7)
  /// `ID_INPUT_KEY`
  public static let key = InputClasses(rawValue: 1 << 8)
  /// `ID_INPUT_KEYBOARD`
  public static let keyboard = InputClasses(rawValue: 1 << 9)
  /// `ID_INPUT_SWITCH`
  public static let `switch` = InputClasses(rawValue: 1 << 10)

  private static let names: [(InputClasses, String)] = [
    (.accelerometer, "ID_INPUT_ACCELEROMETER"), (.joystick, "ID_INPUT_JOYSTICK"),
    (.mouse, "ID_INPUT_MOUSE"), (.touchpad, "ID_INPUT_TOUCHPAD"),
    (.touchscreen, "ID_INPUT_TOUCHSCREEN"), (.tablet, "ID_INPUT_TABLET"),
    (.tabletPad, "ID_INPUT_TABLET_PAD"), (.pointingStick, "ID_INPUT_POINTINGSTICK"),
    (.key, "ID_INPUT_KEY"), (.keyboard, "ID_INPUT_KEYBOARD"), (.switch, "ID_INPUT_SWITCH"),
  ]

  /// The udev property names, in the order above.
  public var udevProperties: [String] {
    Self.names.filter { contains($0.0) }.map(\.1)
  }

  /// Classifies `info` as input_id does. A node's event types are the keys of
  /// `info.codes` (libevdev's `libevdev_has_event_type`, and an evemu
  /// description's `B: 00` line).
  public init(_ info: DeviceInfo) {
    func code(_ c: Int32) -> UInt16 { UInt16(c) }
    let keys = info.codes[code(EV_KEY)] ?? []
    let abs = info.codes[code(EV_ABS)] ?? []
    let rel = info.codes[code(EV_REL)] ?? []
    func key(_ c: Int32) -> Bool { keys.contains(code(c)) }
    func axis(_ c: Int32) -> Bool { abs.contains(code(c)) }
    func property(_ c: Int32) -> Bool { info.properties.contains(code(c)) }
    func anyKey(_ range: Range<Int32>) -> Bool { keys.contains { range.contains(Int32($0)) } }

    var classes: InputClasses = []
    let hasKeys = info.has(type: code(EV_KEY))
    let hasAbsCoordinates = axis(ABS_X) && axis(ABS_Y)
    let has3DCoordinates = hasAbsCoordinates && axis(ABS_Z)
    let isPointer: Bool
    if property(INPUT_PROP_ACCELEROMETER) || (!hasKeys && has3DCoordinates) {
      classes.insert(.accelerometer)
      isPointer = true
    } else {
      let hasStylus = key(BTN_STYLUS)
      let hasPen = key(BTN_TOOL_PEN)
      let fingerButNoPen = key(BTN_TOOL_FINGER) && !key(BTN_TOOL_PEN)
      let hasMouseButton = anyKey(BTN_MOUSE..<BTN_JOYSTICK)
      let hasRelCoordinates = rel.contains(code(REL_X)) && rel.contains(code(REL_Y))
      // Unless the device claims every axis up to ABS_MT_SLOT.
      let hasMTCoordinates =
        axis(ABS_MT_POSITION_X) && axis(ABS_MT_POSITION_Y)
        && !(axis(ABS_MT_SLOT) && axis(ABS_MT_SLOT - 1))
      let isDirect = property(INPUT_PROP_DIRECT)
      let hasTouch = key(BTN_TOUCH)
      let hasPadButtons = key(BTN_0) && hasStylus && !hasPen
      // Joysticks need not have buttons (rudders, pedals) nor axes. A mouse
      // with more than 16 buttons runs into the BTN_JOYSTICK range; its
      // buttons there don't count.
      var joystickAxesOrButtons =
        !key(BTN_JOYSTICK - 1)
        && (anyKey(BTN_JOYSTICK..<BTN_DIGI) || anyKey(BTN_TRIGGER_HAPPY1..<BTN_TRIGGER_HAPPY40 + 1)
          || anyKey(BTN_DPAD_UP..<BTN_DPAD_RIGHT + 1))
      joystickAxesOrButtons =
        joystickAxesOrButtons || abs.contains { (ABS_RX..<ABS_PRESSURE).contains(Int32($0)) }

      var isMouse = false
      var isAbsMouse = false
      if hasAbsCoordinates {
        if hasStylus || hasPen {
          classes.insert(.tablet)
        } else if fingerButNoPen && !isDirect {
          classes.insert(.touchpad)
        } else if hasMouseButton {
          // VMware's and QEMU's USB tablets: absolute axes, no touch button.
          isAbsMouse = true
        } else if hasTouch || isDirect {
          classes.insert(.touchscreen)
        } else if joystickAxesOrButtons {
          classes.insert(.joystick)
        }
      } else if joystickAxesOrButtons {
        classes.insert(.joystick)
      }
      if hasMTCoordinates {
        if hasStylus || hasPen {
          classes.insert(.tablet)
        } else if fingerButNoPen && !isDirect {
          classes.insert(.touchpad)
        } else if hasTouch || isDirect {
          classes.insert(.touchscreen)
        }
      }
      if classes.contains(.tablet) && hasPadButtons { classes.insert(.tabletPad) }
      // Mouse buttons and relative axes, or mouse buttons and no axes at all.
      if classes.isDisjoint(with: [.tablet, .touchpad, .joystick]) && hasMouseButton
        && (hasRelCoordinates || !hasAbsCoordinates)
      {
        isMouse = true
      }
      // There is no such thing as an i2c mouse (BUS_I2C, linux/input.h).
      if isMouse && info.id.bustype == 0x18 { classes.insert(.pointingStick) }
      if property(INPUT_PROP_POINTING_STICK) { classes.insert(.pointingStick) }
      if isMouse || isAbsMouse { classes.insert(.mouse) }
      isPointer = !classes.isDisjoint(with: [
        .tablet, .mouse, .touchpad, .touchscreen, .joystick, .pointingStick,
      ])
    }

    // test_key: any KEY_* below BTN_MISC, else one in the high blocks
    // [KEY_OK, BTN_DPAD_UP) and [KEY_ALS_TOGGLE, BTN_TRIGGER_HAPPY).
    var isKey = false
    if hasKeys {
      if anyKey(0..<BTN_MISC) || anyKey(KEY_OK..<BTN_DPAD_UP)
        || anyKey(KEY_ALS_TOGGLE..<BTN_TRIGGER_HAPPY)
      {
        classes.insert(.key)
        isKey = true
      }
      // The first 32 codes but KEY_RESERVED (ESC, the digits, Q to S): a full keyboard.
      if (KEY_ESC...KEY_S).allSatisfy(key) {
        classes.insert(.keyboard)
        isKey = true
      }
    }
    // Some nodes have only a scroll wheel.
    if !isPointer && !isKey && info.has(type: code(EV_REL))
      && (rel.contains(code(REL_WHEEL)) || rel.contains(code(REL_HWHEEL)))
    {
      classes.insert(.key)
    }
    if info.has(type: code(EV_SW)) { classes.insert(.switch) }
    self = classes
  }
}

extension DeviceProfile {
  static let xyz: [UInt16] = [AbsCode.x, AbsCode.y, AbsCode.z]
  static let rxyz: [UInt16] = [AbsCode.rx, AbsCode.ry, AbsCode.rz]

  /// Classifies a device the way udev's `input_id` builtin does
  /// (``InputClasses``), with the driver facts of ``DeviceQuirk``:
  /// - udev's accelerometer (`INPUT_PROP_ACCELEROMETER`, or `ABS_X/Y/Z` and no
  ///   keys), or a node a quirk knows by its ids and axes → accelerometer, or
  ///   imu with `ABS_RX/RY/RZ`; a quirk gives its axes, units and orientation;
  /// - udev's joystick with `ABS_X/ABS_Y` → joystick (contract §2.5);
  /// - anything else is unsupported, with the reason: a touchscreen, touchpad,
  ///   pen tablet or pointer has positions, not a stick.
  ///
  /// Resolutions: the axis's own resolution wins; else the quirk's; else, for
  /// an accelerometer, `maximum / 2` units per g (a guess that the range is
  /// ±2 g, said in `reason`).
  ///
  /// - Parameter mountMatrix: replaces the default device → card matrix: the
  ///   user's `--mount-matrix`, or a plain accelerometer's `ACCEL_MOUNT_MATRIX`.
  public static func classify(_ info: DeviceInfo, mountMatrix: MountMatrix? = nil) -> DeviceProfile
  {
    let classes = InputClasses(info)
    let quirk = DeviceQuirk.matching(info)
    let hasAbs = { (code: UInt16) in info.has(type: EventType.abs, code: code) }
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
        axisInfo: axisInfo, inputClasses: classes)
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

    if classes.contains(.accelerometer) || quirk != nil {
      let accelAxes = quirk?.accelAxes ?? xyz
      let accelProperty = info.has(property: InputProperty.accelerometer)
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

    if classes.contains(.joystick) {
      guard hasAbs(AbsCode.x) && hasAbs(AbsCode.y) else {
        let sticks = [AbsCode.rx, AbsCode.ry, AbsCode.rz].filter(hasAbs)
        let what =
          sticks.isEmpty
          ? "a gamepad or joystick (udev: joystick) without ABS_X/ABS_Y"
          : "a gamepad or joystick (udev: joystick) whose stick is on "
            + sticks.map(axisName).joined(separator: "/") + ", not ABS_X/ABS_Y"
        return unsupported(
          "\(what): no stick to tilt with; its buttons still flip the card when it "
            + "pairs with a motion node")
      }
      if let bad = badRange([AbsCode.x, AbsCode.y]) {
        return unsupported("\(axisName(bad)) has no valid range (minimum ≥ maximum)")
      }
      return profile(
        .joystick, accel: [AbsCode.x, AbsCode.y],
        reason: "stick ABS_X/ABS_Y acts as tilt (full deflection = stick range)")
    }

    let positions = "its ABS_X/ABS_Y are positions, not a stick's deflection"
    if classes.contains(.touchscreen) {
      return unsupported("a touchscreen (udev: touchscreen): \(positions)")
    }
    if classes.contains(.touchpad) {
      return unsupported("a touchpad (udev: touchpad): \(positions)")
    }
    if classes.contains(.tablet) {
      return unsupported("a pen tablet (udev: tablet): \(positions)")
    }
    if classes.contains(.mouse) && hasAbs(AbsCode.x) && hasAbs(AbsCode.y) {
      return unsupported(
        "an absolute pointer (udev: mouse; a VM's USB tablet or similar): \(positions)")
    }
    if classes.contains(.pointingStick) {
      return unsupported("a pointing stick (udev: pointingstick); no tilt to read")
    }
    let relXY = info.has(type: EventType.rel, code: 0) && info.has(type: EventType.rel, code: 1)
    if classes.contains(.mouse) && relXY {
      return unsupported("a mouse (udev: mouse): relative motion only; no tilt to read")
    }
    if hasAbs(AbsCode.x) && hasAbs(AbsCode.y) {
      return unsupported(
        "ABS_X/ABS_Y without joystick buttons or axes: udev does not call it a joystick")
    }
    let absCodes = info.codes[EventType.abs] ?? []
    if !(info.codes[EventType.rel] ?? []).isEmpty {
      return unsupported("relative axes only (a mouse or similar); no tilt to read")
    }
    if !keys.isEmpty && absCodes.isEmpty {
      return unsupported("keys or buttons only (no absolute axes); no tilt to read")
    }
    if !absCodes.isEmpty {
      let names = absCodes.sorted().prefix(6).map(axisName)
      return unsupported(
        "absolute axes \(names.joined(separator: "/")) but no accelerometer, gyroscope or stick")
    }
    return unsupported("no accelerometer, no gyroscope and no stick")
  }

  static func axisName(_ code: UInt16) -> String {
    if let name = EventNames.codeName(type: EventType.abs, code: code) {
      return name
    }
    return "ABS_0x\(String(code, radix: 16))"
  }
}
