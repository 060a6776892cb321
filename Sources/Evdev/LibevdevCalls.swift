import CEvdev
import SensorData
import SystemCalls

/// The libevdev calls that can fail, with ``Syscall``'s rules.
extension Syscall {
  /// `libevdev_new_from_fd(fd, &dev)`: reads the device's capabilities.
  static func libevdevNew(fd: Int32) throws(Errno) -> OpaquePointer {
    var device: OpaquePointer?
    guard try negativeErrno("libevdev_new_from_fd", { libevdev_new_from_fd(fd, &device) }) != nil,
      let device
    else { throw Errno.wouldBlock }
    return device
  }

  /// `libevdev_free(dev)`.
  static func libevdevFree(_ device: OpaquePointer) {
    libevdev_free(device)
  }

  /// `libevdev_next_event(dev, flags, &ev)` with `LIBEVDEV_READ_FLAG_NORMAL` or
  /// `LIBEVDEV_READ_FLAG_SYNC`.
  static func libevdevNextEvent(_ device: OpaquePointer, _ mode: ReadMode) throws(Errno)
    -> ReadOutcome
  {
    let flags: UInt32
    switch mode {
    case .normal: flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
    case .sync: flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
    }
    var raw = input_event()
    guard
      let result = try negativeErrno(
        "libevdev_next_event", { libevdev_next_event(device, flags, &raw) })
    else { return .wouldBlock }
    let event = InputEvent(
      time: EventTime(seconds: Int64(raw.time.tv_sec), microseconds: Int64(raw.time.tv_usec)),
      type: raw.type, code: raw.code, value: raw.value)
    return result == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) ? .sync(event) : .success(event)
  }
}
