import SensorData
import SystemCalls

/// A device's properties from the udev database, read directly from its files
/// (no libudev): `/run/udev/data/c<major>:<minor>` for a character device, whose
/// `E:KEY=VALUE` lines are the properties that `udevadm info` shows.
public struct UdevProperties: Hashable, Sendable {
  /// Where udev keeps its database.
  public static let defaultDirectory = "/run/udev/data"

  /// The properties, by key (`ID_INPUT_ACCELEROMETER`, `ACCEL_MOUNT_MATRIX`, …).
  public var values: [String: String]

  public init(values: [String: String]) { self.values = values }

  /// The `E:` lines of a udev database entry; other lines (`S:`, `I:`, `G:`,
  /// `Q:`, `V:`) are ignored, and so is an `E:` line without `=`. A value keeps
  /// everything after the first `=`, spaces included.
  public init(parsing text: String) {
    var values: [String: String] = [:]
    for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("E:") {
      let entry = line.dropFirst(2)
      guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else { continue }
      values[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
    }
    self.init(values: values)
  }

  /// The entry of the character device `major:minor`, or `nil` when udev has none
  /// (no udev, or the device is not known to it).
  public init?(major: UInt32, minor: UInt32, directory: String = defaultDirectory) {
    let file = joinedPath(directory, "c\(major):\(minor)")
    guard let text = Syscall.readSmallTextFile(file) else { return nil }
    self.init(parsing: text)
  }

  /// The entry of the device node at `path` (its number from `stat`), or `nil`
  /// when the path is not a character device or udev has no entry for it.
  public init?(forDevicePath path: String, directory: String = defaultDirectory) {
    guard let number = try? Syscall.characterDeviceNumber(path) else { return nil }
    self.init(major: number.major, minor: number.minor, directory: directory)
  }

  public subscript(key: String) -> String? { values[key] }

  /// The raw `ACCEL_MOUNT_MATRIX` of the device at `path` (udev's
  /// "a,b,c; d,e,f; g,h,i" syntax, unparsed), or `nil` when it has none.
  public static func accelMountMatrix(
    forDevicePath path: String, directory: String = defaultDirectory
  ) -> String? {
    UdevProperties(forDevicePath: path, directory: directory)?["ACCEL_MOUNT_MATRIX"]
  }
}

extension UdevProperties {
  /// The kernel driver of the device that owns the input device of the node at
  /// `path`, as sysfs names it (`/sys/dev/char/MAJOR:MINOR/device/device/driver`,
  /// the link's last component: `sony`, `playstation`, `nintendo`, `steam`), or
  /// "" when there is none (a uinput device, no sysfs, not a character device).
  public static func driver(forDevicePath path: String, sysfs: String = "/sys") -> String {
    guard let number = try? Syscall.characterDeviceNumber(path) else { return "" }
    let link = "\(sysfs)/dev/char/\(number.major):\(number.minor)/device/device/driver"
    guard let target = try? Syscall.symbolicLinkDestination(link) else { return "" }
    return lastPathComponent(target)
  }
}
