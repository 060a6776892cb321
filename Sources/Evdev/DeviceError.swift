import SensorData
import SystemCalls

/// Why an input device node could not be opened or read.
///
/// Each description is one line that names the node and says what to do.
public enum DeviceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The node exists but this user may not read it (`EACCES`, `EPERM`).
  case permissionDenied(String)
  /// No such node (`ENOENT`).
  case notFound(String)
  /// The path is not an evdev node: a regular file, a directory, `/dev/zero`
  /// (the evdev ioctls fail with `ENOTTY` or `EINVAL`).
  case notAnInputDevice(String)
  /// The device went away: unplugged, or its driver unbound (`ENODEV`).
  case vanished(String)
  /// Any other failure of `operation` (a C function name) on the node.
  case system(String, Errno, operation: String)

  /// The node the error is about.
  public var path: String {
    switch self {
    case .permissionDenied(let path), .notFound(let path), .notAnInputDevice(let path),
      .vanished(let path), .system(let path, _, _):
      return path
    }
  }

  /// The error for `errno` from `operation` on the node at `path`.
  public init(path: String, errno: Errno, operation: String) {
    switch errno {
    case .permissionDenied, .notPermitted: self = .permissionDenied(path)
    case .noSuchFile: self = .notFound(path)
    case .noDevice, .noDeviceOrAddress: self = .vanished(path)
    case .notTypewriter, .invalidArgument, .isDirectory: self = .notAnInputDevice(path)
    default: self = .system(path, errno, operation: operation)
    }
  }

  /// The udev rule tilt ships (`packaging/udev/70-tilt-evdev.rules`): the
  /// seat's user may read the evdev nodes of motion sensors, and no other
  /// input node (keyboards and mice stay closed).
  public static let udevRule =
    "SUBSYSTEM==\"input\", KERNEL==\"event*\", ENV{ID_INPUT_ACCELEROMETER}==\"1\", "
    + "TAG+=\"uaccess\""

  /// What lets this user read a motion sensor's node: tilt's udev rule,
  /// installed, then udev told; a clause in lower case, for a message to end with.
  public static let permissionFix =
    "install tilt's udev rule for motion sensors (scripts/install puts "
    + "packaging/udev/70-tilt-evdev.rules in /etc/udev/rules.d; the rule is \(udevRule)), "
    + "then: sudo udevadm control --reload && sudo udevadm trigger -s input"

  public var description: String {
    switch self {
    case .permissionDenied(let path):
      return "\(path): permission denied; to read it, \(DeviceError.permissionFix)"
    case .notFound(let path):
      return "\(path): no such device node; check the path (input devices are /dev/input/eventN)"
    case .notAnInputDevice(let path):
      return "\(path): not an evdev input device; give a node like /dev/input/event0"
    case .vanished(let path):
      return "\(path): the device went away (unplugged or its driver removed)"
    case .system(let path, let errno, let operation):
      return "\(path): \(operation) failed: \(errno)"
    }
  }
}
