import EvdevCore
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

  public var description: String {
    switch self {
    case .permissionDenied(let path):
      return "\(path): permission denied. Add your user to the 'input' group "
        + "(sudo usermod -aG input $USER, then log in again) or add the udev rule "
        + "KERNEL==\"event*\", SUBSYSTEM==\"input\", TAG+=\"uaccess\""
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
