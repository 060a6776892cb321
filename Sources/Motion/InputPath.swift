import SystemCalls

/// What a path given as the input is, before it is opened (``MotionInput``):
/// a device node, a directory, or something else (a recording).
public enum InputPath {
  public enum Kind: Hashable, Sendable {
    /// A character device: a live `/dev/input/eventN` or `/dev/iio:deviceN`.
    case characterDevice
    case directory
    /// A regular file, a pipe, anything else: read as a recording.
    case other
  }

  /// The kind of `path` (`stat(2)`); throws the `errno` of a path that
  /// cannot be looked at (no such file, permission).
  public static func kind(of path: String) throws(Errno) -> Kind {
    switch try Syscall.fileKind(path) {
    case .characterDevice: return .characterDevice
    case .directory: return .directory
    default: return .other
    }
  }
}

/// The name ``InputPath`` had before 0.4.0.
@available(*, deprecated, renamed: "InputPath")
public typealias SourcePath = InputPath
