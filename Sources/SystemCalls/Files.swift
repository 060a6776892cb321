import Glibc

/// File calls, with ``Syscall``'s rules: `EINTR` retried, `EBADF`/`EFAULT`
/// preconditions, every other error thrown as ``Errno``.
extension Syscall {
  /// `open(path, flags, mode)`; `O_CLOEXEC` is always added.
  package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno)
    -> Int32
  {
    try checked("open") { Glibc.open(path, flags | O_CLOEXEC, mode) }
  }

  /// How a file is opened.
  package enum Access: Sendable {
    /// `O_RDONLY`
    case readOnly
    /// `O_WRONLY`
    case writeOnly

    var flags: Int32 {
      switch self {
      case .readOnly: O_RDONLY
      case .writeOnly: O_WRONLY
      }
    }
  }

  /// `open(path, access | O_CLOEXEC)`.
  package static func open(_ path: String, _ access: Access) throws(Errno) -> Int32 {
    try open(path, access.flags)
  }

  /// `open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions)`: a
  /// file to write from its start, made when absent (e.g. permissions 0o644).
  package static func create(_ path: String, permissions: UInt32) throws(Errno) -> Int32 {
    try open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: mode_t(permissions))
  }

  /// Writes all of `bytes`, looping on short writes.
  package static func writeAll(
    _ fd: Int32, _ bytes: UnsafeRawBufferPointer, badDescriptor: BadDescriptor = .isBug
  ) throws(Errno) {
    guard var base = bytes.baseAddress else { return }
    var left = bytes.count
    while left > 0 {
      let n = try checked("write", badDescriptor: badDescriptor) { Glibc.write(fd, base, left) }
      base += n
      left -= n
    }
  }

  /// Writes all of `bytes`, looping on short writes.
  package static func writeAll(
    _ fd: Int32, _ bytes: [UInt8], badDescriptor: BadDescriptor = .isBug
  ) throws(Errno) {
    var failure: Errno?
    bytes.withUnsafeBytes { raw in
      do throws(Errno) { try writeAll(fd, raw, badDescriptor: badDescriptor) } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  /// `read(fd, buffer, count)`: the bytes read (0 at end of file), or `nil`
  /// when a non-blocking descriptor has none yet.
  package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno)
    -> Int?
  {
    try nonBlocking("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
  }

  /// `fsync(fd)`.
  package static func fsync(_ fd: Int32) throws(Errno) {
    try checked("fsync") { Glibc.fsync(fd) }
  }

  /// `rename(from, to)`.
  package static func rename(_ from: String, _ to: String) throws(Errno) {
    try checked("rename") { Glibc.rename(from, to) }
  }

  /// `fchmod(fd, mode)`, best effort: the file works without it.
  package static func setPermissionsIfPossible(_ fd: Int32, _ mode: UInt32) {
    _ = fchmod(fd, mode_t(mode))
  }

  /// The whole of a small file (a sysfs or procfs attribute), read through
  /// `read(2)`; a non-blocking descriptor that has nothing yet ends it.
  package static func readSmallFile(_ path: String) throws(Errno) -> [UInt8] {
    let fd = try openForReading(path)
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      var failure: Errno?
      let count = buffer.withUnsafeMutableBytes { raw -> Int? in
        do throws(Errno) { return try read(fd, into: raw) } catch {
          failure = error
          return nil
        }
      }
      if let failure { throw failure }
      guard let count, count > 0 else { break }
      bytes += buffer[..<count]
    }
    return bytes
  }

  /// `unlink(path)`, for clean-up: a failure is ignored.
  /// A pipe whose ends are close-on-exec and non-blocking, for waking a
  /// `poll()`: the read end and the write end.
  package static func nonBlockingPipe() throws(Errno) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw Errno.current }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    return (ends[0], ends[1])
  }

  package static func unlinkIfPresent(_ path: String) { _ = Glibc.unlink(path) }

  /// `mkstemp` on `prefix` + `XXXXXX`: the descriptor (close-on-exec) and the path.
  package static func makeTemporaryFile(prefix: String) throws(Errno) -> (fd: Int32, path: String) {
    var template = Array((prefix + "XXXXXX").utf8CString)
    let fd = try checked("mkstemp") {
      template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    return (fd, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
  }

  /// `lseek(fd, 0, SEEK_SET)`.
  package static func rewind(_ fd: Int32) throws(Errno) {
    try checked("lseek") { lseek(fd, 0, SEEK_SET) }
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
    try checked("stat") { stat(path, &status) }
    return FileKind(mode: status.st_mode)
  }

  /// `fstat(fd)`'s file kind.
  package static func fileKind(_ fd: Int32) throws(Errno) -> FileKind {
    var status = stat()
    try checked("fstat") { fstat(fd, &status) }
    return FileKind(mode: status.st_mode)
  }

  /// An inotify descriptor (non-blocking) watching `directory` for new and
  /// changed entries.
  package static func watchDirectory(_ directory: String) throws(Errno) -> Int32 {
    try watch(directory, events: UInt32(IN_CREATE | IN_ATTRIB))
  }

  /// An unlinked temporary file in `$TMPDIR` (else `/tmp`) holding `bytes`,
  /// read from its start: text handed to a reader that reads descriptors.
  package static func temporaryFile(holding bytes: [UInt8]) throws(Errno) -> Int32 {
    let directory = SystemInfo.environment("TMPDIR") ?? "/tmp"
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
