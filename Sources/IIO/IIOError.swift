import SystemCalls

/// Why an IIO sensor could not be set up or read. Each description is one
/// line that names the node or attribute and says what to do.
public enum IIOError: Error, Hashable, Sendable, CustomStringConvertible {
  /// This user may not read the node or write the attribute (`EACCES`, `EPERM`).
  case permissionDenied(String)
  /// The device went away: unplugged, or its driver unbound.
  case vanished(String)
  /// Another reader has the node open (`EBUSY`): an IIO buffer has one reader.
  case busy(String)
  /// The node or attribute holds what the kernel does not write.
  case malformed(String, IIOFormatError)
  /// Any other failure of `operation` on the file.
  case system(String, Errno, operation: String)

  /// The file the error is about.
  public var path: String {
    switch self {
    case .permissionDenied(let path), .vanished(let path), .busy(let path), .malformed(let path, _),
      .system(let path, _, _):
      return path
    }
  }

  /// The error for `errno` from `operation` on `path`.
  public init(path: String, errno: Errno, operation: String) {
    switch errno {
    case .permissionDenied, .notPermitted: self = .permissionDenied(path)
    case .noDevice, .noDeviceOrAddress, .noSuchFile: self = .vanished(path)
    case .busy: self = .busy(path)
    default: self = .system(path, errno, operation: operation)
    }
  }

  /// The udev rule that gives the seat's user an IIO sensor: the node, and
  /// the attributes that enable its buffer.
  public static let udevRule =
    "SUBSYSTEM==\"iio\", KERNEL==\"iio:device*\", TAG+=\"uaccess\", RUN+=\"/bin/sh -c "
    + "'cd /sys%p && chmod a+w buffer/enable buffer/length scan_elements/*_en "
    + "trigger/current_trigger'\""

  public var description: String {
    switch self {
    case .permissionDenied(let path):
      return "\(path): permission denied. Run as root, or add the udev rule "
        + "\(IIOError.udevRule) to /etc/udev/rules.d/70-tilt-iio.rules "
        + "(then: sudo udevadm control --reload && sudo udevadm trigger -s iio)"
    case .vanished(let path):
      return "\(path): the sensor went away (unplugged or its driver removed)"
    case .busy(let path):
      return "\(path): busy: another program reads this sensor (iio-sensor-proxy? "
        + "stop it with 'systemctl stop iio-sensor-proxy')"
    case .malformed(let path, let error):
      return "\(path): \(error) (kernel bug?)"
    case .system(let path, let errno, let operation):
      return "\(path): \(operation) failed: \(errno)"
    }
  }
}
