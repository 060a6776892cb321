import Attitude

/// What flips the card, besides an explicit flip (the space key).
public enum FlipTrigger: String, Hashable, Sendable, CaseIterable {
  /// A press of the device's flip button: see ``flipButtonCodes(forKeys:)``.
  case button
  /// The device turned face down relative to the reference: see ``TurnoverDetector``.
  case turnover
  /// Only an explicit flip.
  case none

  /// The evdev key codes whose press flips the card when the device's keys are
  /// not known: `BTN_SOUTH` (0x130, also spelled `BTN_A`) and `BTN_TRIGGER`
  /// (0x120), SPEC §3's flip buttons.
  public static let flipButtonCodes: Set<UInt16> = [southCode, triggerCode]

  /// The flip buttons of a device whose nodes report the key codes `keys`
  /// (`EV_KEY`, the motion node's and its paired button node's): its primary
  /// button, the first of these that it has:
  ///
  /// 1. `BTN_SOUTH` and `BTN_TRIGGER`, whichever it has (both if both: SPEC §3);
  /// 2. `BTN_DPAD_LEFT` (0x222): a node with D-pad buttons and neither of the
  ///    above is a left Joy-Con (hid-nintendo gives it `BTN_DPAD_*`, L, ZL,
  ///    minus, capture and the stick's click, no face buttons). Held sideways,
  ///    as a lone Joy-Con is held, that button sits where `BTN_SOUTH` sits on
  ///    a gamepad: SDL reads it as its south button for a single sideways left
  ///    Joy-Con (`SDL_hidapi_switch.c`, `HandleMiniControllerStateL`);
  /// 3. the lowest joystick or gamepad button, `BTN_JOYSTICK` (0x120) to
  ///    `BTN_THUMBR` (0x13e), such as `BTN_EAST` or `BTN_THUMB`;
  /// 4. the lowest misc button, `BTN_0` to `BTN_9` (0x100–0x109).
  ///
  /// Mouse buttons, tool and touch codes and keyboard keys never flip: a
  /// device with only those has no flip button (the space key still flips).
  public static func flipButtonCodes(forKeys keys: Set<UInt16>) -> Set<UInt16> {
    let spec = keys.intersection(flipButtonCodes)
    if !spec.isEmpty { return spec }
    if keys.contains(dpadLeftCode) { return [dpadLeftCode] }
    for range in [gamepadCodes, miscCodes] {
      if let lowest = keys.filter(range.contains).min() { return [lowest] }
    }
    return []
  }

  /// `BTN_SOUTH`
  static let southCode: UInt16 = 0x130
  /// `BTN_TRIGGER`
  static let triggerCode: UInt16 = 0x120
  /// `BTN_DPAD_LEFT`
  static let dpadLeftCode: UInt16 = 0x222
  /// `BTN_JOYSTICK` (`BTN_TRIGGER`) to `BTN_THUMBR`: joystick and gamepad buttons.
  static let gamepadCodes: ClosedRange<UInt16> = 0x120...0x13e
  /// `BTN_0` to `BTN_9`.
  static let miscCodes: ClosedRange<UInt16> = 0x100...0x109
}

/// Decides, from the attitude, whether the device is face down, with hysteresis.
///
/// The card's z axis in reference coordinates is `q·(0,0,1)`; its z component
/// falling below `downThreshold` turns the card over, rising above `upThreshold`
/// turns it back. Between the two the state holds, so noise near edge-on never
/// makes the card flutter.
public struct TurnoverDetector: Hashable, Sendable {
  public var downThreshold: Double = -0.5
  public var upThreshold: Double = 0.5
  /// Whether the device is currently taken as face down.
  public private(set) var isFaceDown = false

  public init() {}

  /// Feeds one attitude; returns the new face-down state when it changes.
  public mutating func update(_ quaternion: Quaternion) -> Bool? {
    let z = quaternion.rotate(Vector3(0, 0, 1)).z
    if !isFaceDown, z < downThreshold {
      isFaceDown = true
      return true
    }
    if isFaceDown, z > upThreshold {
      isFaceDown = false
      return false
    }
    return nil
  }
}
