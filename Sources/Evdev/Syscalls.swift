import CEvdev
import Glibc

/// The one place where the Evdev module calls C functions that can fail.
///
/// As in swift-nio's `System.swift`: `EINTR` is retried, `EAGAIN` comes back as a
/// value, `EBADF` and `EFAULT` are programmer errors (a precondition), every other
/// error is thrown as an `Errno`.
enum Syscall {
  /// `open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)`.
  static func openForReading(_ path: String) throws(Errno) -> Int32 {
    while true {
      let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
      if fd >= 0 { return fd }
      let error = Errno.current
      if error == .interrupted { continue }
      try checkNotProgrammerError(error, "open")
      throw error
    }
  }

  /// `close(fd)`. Not retried on `EINTR`: on Linux the descriptor is gone either way.
  static func close(_ fd: Int32) {
    if Glibc.close(fd) == 0 { return }
    let error = Errno.current
    precondition(error != .badFileDescriptor, "close(\(fd)): \(error): descriptor closed twice")
  }

  /// The device number of a character device node (`st_rdev` from `stat(2)`), or
  /// `nil` when the path is something else.
  static func characterDeviceNumber(_ path: String) throws(Errno) -> (major: UInt32, minor: UInt32)?
  {
    var status = stat()
    while stat(path, &status) != 0 {
      let error = Errno.current
      if error == .interrupted { continue }
      try checkNotProgrammerError(error, "stat")
      throw error
    }
    guard status.st_mode & S_IFMT == S_IFCHR else { return nil }
    let device = UInt64(status.st_rdev)
    // The glibc encoding of dev_t, as the major() and minor() macros decode it.
    let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
    let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
    return (UInt32(truncatingIfNeeded: major), UInt32(truncatingIfNeeded: minor))
  }

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

  private static func checkNotProgrammerError(_ error: Errno, _ operation: String) throws(Errno) {
    precondition(
      error != .badFileDescriptor && error != .badAddress,
      "\(operation): \(error): a bug in tilt's Evdev module, not in the device")
  }
}
