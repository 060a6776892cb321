import CEvdev
import EvdevCore
import SystemCalls

/// The libevdev calls that can fail, with ``Syscall``'s rules.
extension Syscall {
  /// `libevdev_new_from_fd(fd, &dev)`: reads the device's capabilities.
  static func libevdevNew(fd: Int32) throws(Errno) -> OpaquePointer {
    while true {
      var device: OpaquePointer?
      let result = libevdev_new_from_fd(fd, &device)
      if result == 0, let device { return device }
      let error = Errno(rawValue: -result)
      if error == .interrupted { continue }
      try checkNotProgrammerError(error, "libevdev_new_from_fd")
      throw error
    }
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
    while true {
      var raw = input_event()
      let result = libevdev_next_event(device, flags, &raw)
      let event = InputEvent(
        time: EventTime(seconds: Int64(raw.time.tv_sec), microseconds: Int64(raw.time.tv_usec)),
        type: raw.type, code: raw.code, value: raw.value)
      if result == Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue) { return .success(event) }
      if result == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) { return .sync(event) }
      let error = Errno(rawValue: -result)
      if error == .interrupted { continue }
      if error == .wouldBlock { return .wouldBlock }
      try checkNotProgrammerError(error, "libevdev_next_event")
      throw error
    }
  }
}
