import SensorData
import SystemCalls

/// How the next event is read: the corresponding C flags are
/// `LIBEVDEV_READ_FLAG_NORMAL` and `LIBEVDEV_READ_FLAG_SYNC`.
public enum ReadMode: Hashable, Sendable {
  /// Events as the kernel queued them.
  case normal
  /// The state delta libevdev computed after a `SYN_DROPPED`.
  case sync
}

/// What one read of the next event gave, as `libevdev_next_event` reports it.
public enum ReadOutcome: Hashable, Sendable {
  /// `LIBEVDEV_READ_STATUS_SUCCESS`: an event in normal mode.
  case success(InputEvent)
  /// `LIBEVDEV_READ_STATUS_SYNC`: in normal mode the `SYN_DROPPED` event itself,
  /// in sync mode one event of the state delta.
  case sync(InputEvent)
  /// `-EAGAIN`: nothing more to read now (in sync mode: the delta is complete).
  case wouldBlock
}

/// The boundary below frame assembly: something that hands out events one at a
/// time the way `libevdev_next_event` does.
///
/// `LiveDevice` reads through libevdev; tests script a fake. Errors other than
/// "would block" are thrown as the C error number (`ENODEV` when the device
/// went away).
public protocol EventReading {
  mutating func nextEvent(_ mode: ReadMode) throws(Errno) -> ReadOutcome
}
