import SystemCalls

/// A note for the person using a live device: it went away or came back, a
/// mount matrix was ignored, the stored gyroscope bias, events the kernel
/// dropped.
public enum MotionNote: Hashable, Sendable, CustomStringConvertible {
  /// The motion node went away; `waiting` when the device waits for it to
  /// come back (`waitsForReconnect`).
  case deviceWentAway(path: String, waiting: Bool)
  /// The device came back at `path`.
  case deviceIsBack(path: String)
  /// udev's `ACCEL_MOUNT_MATRIX` (or an IIO driver's `mount_matrix`) could
  /// not be read and is ignored (a system bug).
  case ignoredUdevMountMatrix(IgnoredMountMatrix)
  /// The fusion starts from the gyroscope bias stored for the device.
  case startsFromStoredGyroscopeBias(StoredGyroBias)
  /// The stored gyroscope bias could not be read or written (it is not used).
  case storedGyroscopeBiasProblem(StoreError)
  /// The kernel's buffer for the motion node overflowed (`SYN_DROPPED`):
  /// samples were lost and the state was read afresh. Said once a run.
  case eventsDropped(path: String)

  public var description: String {
    switch self {
    case .deviceWentAway(let path, false):
      return "\(path) went away (unplugged?); set waitsForReconnect to wait for it to come back."
    case .deviceWentAway(let path, true):
      return "\(path) went away; waiting for it to come back."
    case .deviceIsBack(let path): return "\(path) is back."
    case .ignoredUdevMountMatrix(let ignored): return ignored.description
    case .startsFromStoredGyroscopeBias(let stored):
      let b = stored.biasDegreesPerSecond
      return "starting from the stored gyroscope bias (\(stored.origin.rawValue)): "
        + "\(b.x.formatted3), \(b.y.formatted3), \(b.z.formatted3) deg/s"
    case .storedGyroscopeBiasProblem(let error): return error.description
    case .eventsDropped(let path):
      return "the kernel dropped events from \(path) before they were read (the machine was "
        + "too busy?); motion went on from the device's state"
    }
  }

  /// The line ``toStandardError(_:)`` writes: `tilt: NOTE` and a newline,
  /// with the control and direction characters of device names and paths
  /// shown as escapes (contract §3.10).
  public var standardErrorLine: String {
    "tilt: \(TerminalEscapes.escaped(description))\n"
  }

  /// Writes `note` to stderr: the one way a note is written there
  /// (``standardErrorLine``).
  public static func toStandardError(_ note: MotionNote) {
    try? Syscall.writeAll(StandardDescriptor.error, Array(note.standardErrorLine.utf8))
  }
}

extension Double {
  fileprivate var formatted3: String {
    let scaled = (self * 1000).rounded() / 1000
    return "\(scaled)"
  }
}
