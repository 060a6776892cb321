/// Which keys are buttons, and what a key event says about one: the one rule
/// for a motion node's decoder and for a paired button node.
public enum Buttons {
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
