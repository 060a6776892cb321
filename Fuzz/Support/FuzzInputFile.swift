import Glibc

/// A scratch file that holds one fuzz input at a time, reachable by a path
/// (`/proc/self/fd/N`) so the readers open it as they would a recording. It is
/// unlinked at once (in `/dev/shm` when there is one), so nothing is left behind.
final class FuzzInputFile {
  let path: String
  private let fd: Int32

  init(name: String) {
    let directory = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    var template = Array("\(directory)/tilt-\(name)-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    precondition(fd >= 0, "mkstemp in \(directory) failed: \(String(cString: strerror(errno)))")
    unlink(template)
    self.fd = fd
    path = "/proc/self/fd/\(fd)"
  }

  /// Replaces the file's contents with `bytes`.
  func write(_ bytes: UnsafeRawBufferPointer) {
    precondition(ftruncate(fd, 0) == 0, "ftruncate failed")
    var offset = 0
    while offset < bytes.count {
      let n = pwrite(fd, bytes.baseAddress! + offset, bytes.count - offset, off_t(offset))
      precondition(n > 0 || (n < 0 && errno == EINTR), "pwrite failed")
      if n > 0 { offset += n }
    }
  }
}

/// The fuzz input as a buffer (libFuzzer may pass a null pointer with size 0).
func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeRawBufferPointer {
  guard let data, size > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
  return UnsafeRawBufferPointer(start: data, count: size)
}
