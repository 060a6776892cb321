/// Which keys are buttons, which node carries a device's buttons, which is
/// its primary (flip) button, and what a key event says about one: the one
/// rule for a motion node's decoder, a paired button node, and the card.
public enum Buttons {
  /// `BTN_JOYSTICK` (`BTN_TRIGGER`) to `BTN_THUMBR`: joystick and gamepad
  /// buttons, `BTN_SOUTH` among them.
  public static let gamepadAndJoystick = UInt16(BTN_JOYSTICK)...UInt16(BTN_THUMBR)
  /// `BTN_0` to `BTN_9`: misc buttons.
  public static let misc = UInt16(BTN_0)...UInt16(BTN_9)
  /// `BTN_SOUTH` (also spelled `BTN_A`) and `BTN_TRIGGER`, contract §3.6's primary
  /// buttons: the flip buttons of a device whose keys are not known.
  public static let specPrimary: Set<UInt16> = [ButtonCode.south, ButtonCode.trigger]

  /// Whether a node carries a device's buttons: it has a gamepad or joystick
  /// button and is not itself a motion node.
  public static func isButtonNode(_ info: DeviceInfo) -> Bool {
    guard !info.has(property: InputProperty.accelerometer),
      let keys = info.codes[EventType.key]
    else { return false }
    return keys.contains { gamepadAndJoystick.contains($0) }
  }

  /// The primary buttons of a device whose nodes report the key codes `keys`
  /// (`EV_KEY`, the motion node's and its paired button node's): the first
  /// of these that it has:
  ///
  /// 1. `BTN_SOUTH` and `BTN_TRIGGER`, whichever it has (both if both: contract §3.6);
  /// 2. `BTN_DPAD_LEFT`: a node with D-pad buttons and neither of the above
  ///    is a left Joy-Con (hid-nintendo gives it `BTN_DPAD_*`, L, ZL, minus,
  ///    capture and the stick's click, no face buttons). Held sideways, as a
  ///    lone Joy-Con is held, that button sits where `BTN_SOUTH` sits on a
  ///    gamepad: SDL reads it as its south button for a single sideways left
  ///    Joy-Con (`SDL_hidapi_switch.c`, `HandleMiniControllerStateL`);
  /// 3. the lowest of ``gamepadAndJoystick``, such as `BTN_EAST` or `BTN_THUMB`;
  /// 4. the lowest of ``misc``.
  ///
  /// Mouse buttons, tool and touch codes and keyboard keys are never
  /// primary: a device with only those has none.
  public static func primary(among keys: Set<UInt16>) -> Set<UInt16> {
    let spec = keys.intersection(specPrimary)
    if !spec.isEmpty { return spec }
    if keys.contains(UInt16(BTN_DPAD_LEFT)) { return [UInt16(BTN_DPAD_LEFT)] }
    for range in [gamepadAndJoystick, misc] {
      if let lowest = keys.filter(range.contains).min() { return [lowest] }
    }
    return []
  }

  /// The buttons of a node: its keys from `BTN_MISC` up (gamepad, joystick
  /// and misc buttons), not keyboard keys.
  public static func codes(of info: DeviceInfo) -> Set<UInt16> {
    (info.codes[EventType.key] ?? []).filter { $0 >= UInt16(BTN_MISC) }
  }

  /// The change `event` makes to one of `buttons`; `nil` for other events and
  /// for autorepeat (value 2).
  public static func change(_ event: InputEvent, buttons: Set<UInt16>) -> ButtonChange? {
    guard event.type == EventType.key, event.value != 2, buttons.contains(event.code) else {
      return nil
    }
    return ButtonChange(code: event.code, pressed: event.value != 0)
  }

  /// The buttons of `buttons` that went down in `frame`, in event order.
  public static func pressed(in frame: Frame, buttons: Set<UInt16>) -> [UInt16] {
    frame.events.compactMap { change($0, buttons: buttons) }.filter(\.pressed).map(\.code)
  }
}
