import SystemCalls

/// What the system says about an event node that could not be opened, from
/// files anyone may read: its name from sysfs (`/sys/dev/char/M:N/device/name`)
/// and its kind from udev's `input_id` properties (`ID_INPUT_ACCELEROMETER`,
/// `ID_INPUT_JOYSTICK`), so a permission error can name the device it hides.
public struct UnreadableDevice: Hashable, Sendable {
  public var path: String
  /// The kernel's name of the device, when sysfs has it.
  public var name: String?
  /// True when udev classifies the node as an accelerometer or joystick, false
  /// when it classifies it as something else, nil when udev has no entry.
  public var isMotionDevice: Bool?

  public init(path: String, name: String?, isMotionDevice: Bool?) {
    self.path = path
    self.name = name
    self.isMotionDevice = isMotionDevice
  }

  /// Looks the node at `path` up in sysfs and the udev database.
  public init(path: String, sysfs: String = "/sys", udev: String = UdevProperties.defaultDirectory)
  {
    guard let number = try? Syscall.characterDeviceNumber(path) else {
      self.init(path: path, name: nil, isMotionDevice: nil)
      return
    }
    let file = "\(sysfs)/dev/char/\(number.major):\(number.minor)/device/name"
    let name = Syscall.readSmallTextFile(file).map { text in
      String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
    let udevEntry = UdevProperties(major: number.major, minor: number.minor, directory: udev)
    self.init(
      path: path, name: name,
      isMotionDevice: udevEntry.map {
        $0["ID_INPUT_ACCELEROMETER"] == "1" || $0["ID_INPUT_JOYSTICK"] == "1"
      })
  }
}
