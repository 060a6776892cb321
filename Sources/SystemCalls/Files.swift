import Glibc

/// File calls, with ``Syscall``'s rules: `EINTR` retried, `EBADF`/`EFAULT`
/// preconditions, every other error thrown as ``Errno``.
extension Syscall {
  /// `open(path, flags, mode)`; `O_CLOEXEC` is always added.
  package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno)
    -> Int32
  {
    while true {
      let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
      if fd >= 0 { return fd }
      let error = Errno.current
      if error == .interrupted { continue }
      try checkNotProgrammerError(error, "open")
      throw error
    }
  }

  /// Writes all of `bytes`, looping on short writes.
  package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
    guard var base = bytes.baseAddress else { return }
    var left = bytes.count
    while left > 0 {
      let n = Glibc.write(fd, base, left)
      if n >= 0 {
        base += n
        left -= n
        continue
      }
      let error = Errno.current
      if error == .interrupted { continue }
      try checkNotProgrammerError(error, "write")
      throw error
    }
  }

  /// Writes all of `bytes`, looping on short writes.
  package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(Errno) {
    var failure: Errno?
    bytes.withUnsafeBytes { raw in
      do throws(Errno) { try writeAll(fd, raw) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// `read(fd, buffer, count)`: the bytes read (0 at end of file), or `nil`
  /// when a non-blocking descriptor has none yet.
  package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno)
    -> Int?
  {
    while true {
      let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
      if n >= 0 { return n }
      let error = Errno.current
      if error == .interrupted { continue }
      if error == .wouldBlock { return nil }
      try checkNotProgrammerError(error, "read")
      throw error
    }
  }

  /// `fsync(fd)`.
  package static func fsync(_ fd: Int32) throws(Errno) {
    while Glibc.fsync(fd) != 0 {
      let error = Errno.current
      if error == .interrupted { continue }
      try checkNotProgrammerError(error, "fsync")
      throw error
    }
  }

  /// `rename(from, to)`.
  package static func rename(_ from: String, _ to: String) throws(Errno) {
    while Glibc.rename(from, to) != 0 {
      let error = Errno.current
      if error == .interrupted { continue }
      try checkNotProgrammerError(error, "rename")
      throw error
    }
  }

  /// `unlink(path)`, for clean-up: a failure is ignored.
  package static func unlinkIfPresent(_ path: String) { _ = Glibc.unlink(path) }

  /// `mkstemp` on `prefix` + `XXXXXX`: the descriptor (close-on-exec) and the path.
  package static func makeTemporaryFile(prefix: String) throws(Errno) -> (fd: Int32, path: String) {
    var template = Array((prefix + "XXXXXX").utf8CString)
    while true {
      let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      if fd >= 0 {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return (fd, String(cString: template))
      }
      let error = Errno.current
      if error == .interrupted { continue }
      try checkNotProgrammerError(error, "mkstemp")
      throw error
    }
  }

  /// `lseek(fd, 0, SEEK_SET)`.
  package static func rewind(_ fd: Int32) throws(Errno) {
    if lseek(fd, 0, SEEK_SET) == 0 { return }
    let error = Errno.current
    try checkNotProgrammerError(error, "lseek")
    throw error
  }

  /// What a path or descriptor is (`S_IFMT` of `stat(2)`).
  package enum FileKind: Hashable, Sendable {
    case regular, directory, characterDevice, pipe, other
    init(mode: mode_t) {
      switch mode & S_IFMT {
      case S_IFREG: self = .regular
      case S_IFDIR: self = .directory
      case S_IFCHR: self = .characterDevice
      case S_IFIFO: self = .pipe
      default: self = .other
      }
    }
  }

  /// `stat(path)`'s file kind.
  package static func fileKind(_ path: String) throws(Errno) -> FileKind {
    var status = stat()
    while stat(path, &status) != 0 {
      let error = Errno.current
      if error == .interrupted { continue }
      try checkNotProgrammerError(error, "stat")
      throw error
    }
    return FileKind(mode: status.st_mode)
  }

  /// `fstat(fd)`'s file kind.
  package static func fileKind(_ fd: Int32) throws(Errno) -> FileKind {
    var status = stat()
    while fstat(fd, &status) != 0 {
      let error = Errno.current
      if error == .interrupted { continue }
      try checkNotProgrammerError(error, "fstat")
      throw error
    }
    return FileKind(mode: status.st_mode)
  }

  /// An inotify descriptor (non-blocking) watching `directory` for new and
  /// changed entries.
  package static func watchDirectory(_ directory: String) throws(Errno) -> Int32 {
    let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    if fd < 0 { throw Errno.current }
    if inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_ATTRIB)) < 0 {
      let error = Errno.current
      close(fd)
      throw error
    }
    return fd
  }

  /// An unlinked temporary file in `$TMPDIR` (else `/tmp`) holding `bytes`,
  /// read from its start: text handed to a reader that reads descriptors.
  package static func temporaryFile(holding bytes: [UInt8]) throws(Errno) -> Int32 {
    let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    let (fd, path) = try makeTemporaryFile(prefix: directory + "/tilt-")
    unlinkIfPresent(path)
    do throws(Errno) {
      try writeAll(fd, bytes)
      try rewind(fd)
    } catch {
      close(fd)
      throw error
    }
    return fd
  }
}
