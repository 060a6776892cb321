/// The evdev numbers this project uses, named as in
/// `linux/input-event-codes.h` (`EventType.abs` is `EV_ABS`, and so on).
public enum EventType {
  /// `EV_SYN`
  public static let syn = UInt16(EV_SYN)
  /// `EV_KEY`
  public static let key = UInt16(EV_KEY)
  /// `EV_REL`
  public static let rel = UInt16(EV_REL)
  /// `EV_ABS`
  public static let abs = UInt16(EV_ABS)
  /// `EV_MSC`
  public static let msc = UInt16(EV_MSC)
  /// `EV_MAX`
  public static let max = UInt16(EV_MAX)
}

/// `SYN_*` codes.
public enum SynCode {
  /// `SYN_REPORT`
  public static let report = UInt16(SYN_REPORT)
  /// `SYN_DROPPED`
  public static let dropped = UInt16(SYN_DROPPED)
}

/// `MSC_*` codes.
public enum MscCode {
  /// `MSC_TIMESTAMP`: microseconds, an unsigned 32-bit counter that wraps.
  public static let timestamp = UInt16(MSC_TIMESTAMP)
}

/// `ABS_*` codes.
public enum AbsCode {
  /// `ABS_X`
  public static let x = UInt16(ABS_X)
  /// `ABS_Y`
  public static let y = UInt16(ABS_Y)
  /// `ABS_Z`
  public static let z = UInt16(ABS_Z)
  /// `ABS_RX`
  public static let rx = UInt16(ABS_RX)
  /// `ABS_RY`
  public static let ry = UInt16(ABS_RY)
  /// `ABS_RZ`
  public static let rz = UInt16(ABS_RZ)
}

/// `BTN_*` codes that can flip the card.
public enum ButtonCode {
  /// `BTN_SOUTH`, also spelled `BTN_A`.
  public static let south = UInt16(BTN_SOUTH)
  /// `BTN_EAST`, also spelled `BTN_B`.
  public static let east = UInt16(BTN_EAST)
  /// `BTN_TRIGGER`
  public static let trigger = UInt16(BTN_TRIGGER)
}

/// `INPUT_PROP_*` numbers.
public enum InputProperty {
  /// `INPUT_PROP_ACCELEROMETER`
  public static let accelerometer = UInt16(INPUT_PROP_ACCELEROMETER)
}
