import Glibc

/// The one place where tilt calls C functions that can fail.
///
/// As in swift-nio's `System.swift`: every call goes through one retry loop
/// (``retrying(_:badDescriptor:_:)``): `EINTR` is retried, `EAGAIN` comes back
/// as a value, `EBADF` and `EFAULT` are programmer errors (a precondition),
/// every other error is thrown as an `Errno`.
package enum Syscall {
  /// `open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)`.
  package static func openForReading(_ path: String) throws(Errno) -> Int32 {
    try checked("open") { Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
  }

  /// `close(fd)`. Not retried on `EINTR`: on Linux the descriptor is gone either way.
  package static func close(_ fd: Int32) {
    if Glibc.close(fd) == 0 { return }
    let error = Errno.current
    precondition(error != .badFileDescriptor, "close(\(fd)): \(error): descriptor closed twice")
  }

  /// The device number of a character device node (`st_rdev` from `stat(2)`), or
  /// `nil` when the path is something else.
  package static func characterDeviceNumber(_ path: String) throws(Errno) -> (
    major: UInt32, minor: UInt32
  )? {
    var status = stat()
    try checked("stat") { stat(path, &status) }
    guard status.st_mode & S_IFMT == S_IFCHR else { return nil }
    let device = UInt64(status.st_rdev)
    // The glibc encoding of dev_t, as the major() and minor() macros decode it.
    let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
    let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
    return (UInt32(truncatingIfNeeded: major), UInt32(truncatingIfNeeded: minor))
  }
}

extension Syscall {
  /// The bytes waiting on a non-blocking or ready `fd` (a terminal in raw
  /// mode, a pipe), at most `limit`; empty at end of file, would-block or error.
  package static func readAvailable(_ fd: Int32, limit: Int = 64) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: limit)
    let count = buffer.withUnsafeMutableBytes { raw in
      (try? nonBlocking("read", badDescriptor: .isError) { Glibc.read(fd, raw.baseAddress, limit) })
        ?? nil
    }
    guard let count, count > 0 else { return [] }
    return Array(buffer[..<count])
  }
}

extension Syscall {
  /// Whether `fd` is a pipe or FIFO.
  package static func isPipe(_ fd: Int32) -> Bool {
    (try? fileKind(fd)) == .pipe
  }
}
