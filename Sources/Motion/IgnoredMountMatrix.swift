/// A mount matrix the system gives for a device that does not parse, and is
/// left out (the device's own axes are used): a bug of the system's, not the
/// user's. Said once, as a note; the configuration's ``DeviceMotionConfiguration/mountMatrix``
/// sets the axes instead.
public struct IgnoredMountMatrix: Hashable, Sendable, CustomStringConvertible {
  /// Where the matrix came from.
  public enum Origin: Hashable, Sendable {
    /// udev's `ACCEL_MOUNT_MATRIX` property.
    case udev
    /// An IIO driver's `mount_matrix` attribute, under the sysfs directory given.
    case driver(sysfsPath: String)
  }

  /// The device's node.
  public var device: String
  public var origin: Origin
  /// Why it does not parse.
  public var problem: String

  public init(device: String, origin: Origin, problem: String) {
    self.device = device
    self.origin = origin
    self.problem = problem
  }

  /// What was ignored and why, without what to do.
  public var whatIsWrong: String {
    switch origin {
    case .udev:
      return "ignoring the udev ACCEL_MOUNT_MATRIX of \(device) (system bug: \(problem))"
    case .driver(let sysfsPath):
      return "ignoring the mount_matrix of \(sysfsPath) (kernel bug: \(problem))"
    }
  }

  public var description: String {
    "\(whatIsWrong); set the configuration's mount matrix to give the axes"
  }
}
