import Glibc

/// A C error number, as `errno` or a negative libevdev return value carries it.
///
/// Its description reads like `strerror(3)`: "No such device (ENODEV)".
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
  /// The C `errno` value (positive).
  public var rawValue: Int32

  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// The calling thread's current `errno`.
  package static var current: Errno { Errno(rawValue: errno) }

  /// `EINTR`
  public static let interrupted = Errno(rawValue: EINTR)
  /// `EAGAIN`, also spelled `EWOULDBLOCK`.
  public static let wouldBlock = Errno(rawValue: EAGAIN)
  /// `ENODEV`: the device went away.
  public static let noDevice = Errno(rawValue: ENODEV)
  /// `ENXIO`: the node outlived its device.
  public static let noDeviceOrAddress = Errno(rawValue: ENXIO)
  /// `EISDIR`
  public static let isDirectory = Errno(rawValue: EISDIR)
  /// `ENOENT`
  public static let noSuchFile = Errno(rawValue: ENOENT)
  /// `EACCES`
  public static let permissionDenied = Errno(rawValue: EACCES)
  /// `EPERM`
  public static let notPermitted = Errno(rawValue: EPERM)
  /// `ENOTTY`: the ioctl does not apply to this file.
  public static let notTypewriter = Errno(rawValue: ENOTTY)
  /// `EINVAL`
  public static let invalidArgument = Errno(rawValue: EINVAL)
  /// `EBUSY`: another program holds the device.
  public static let busy = Errno(rawValue: EBUSY)
  /// `EPIPE`: the reader of a pipe or socket went away.
  public static let brokenPipe = Errno(rawValue: EPIPE)
  /// `ENOSPC`
  public static let noSpace = Errno(rawValue: ENOSPC)
  /// `EDQUOT`
  public static let diskQuotaExceeded = Errno(rawValue: EDQUOT)
  /// `EBADF`
  public static let badFileDescriptor = Errno(rawValue: EBADF)
  /// `EFAULT`
  public static let badAddress = Errno(rawValue: EFAULT)

  public var description: String {
    if let name = Errno.names[rawValue] { return "\(message) (\(name))" }
    return message
  }

  /// What `strerror(3)` says, without the C name: "No such device".
  public var message: String {
    strerror(rawValue).map { String(cString: $0) } ?? "Unknown error \(rawValue)"
  }

  private static let names: [Int32: String] = [
    EPERM: "EPERM", ENOENT: "ENOENT", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO",
    EBADF: "EBADF", EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT",
    EBUSY: "EBUSY", ENODEV: "ENODEV", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EINVAL: "EINVAL",
    EMFILE: "EMFILE", ENOTTY: "ENOTTY", ENOSPC: "ENOSPC", EROFS: "EROFS", EPIPE: "EPIPE",
    EDQUOT: "EDQUOT",
  ]
}

/// A system call that failed outside any one file or device (a `poll`, a
/// `pipe`): what was being done, and the `errno` it ended with.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What failed, as the message begins: "poll failed".
  public var context: String
  public var errno: Errno

  public init(_ context: String, errno: Errno) {
    self.context = context
    self.errno = errno
  }

  public var description: String { "\(context): \(errno)" }
}
