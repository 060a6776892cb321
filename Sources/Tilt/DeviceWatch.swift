import Glibc
import SystemCalls

/// Wakes the live loop when nodes appear in the input directory (inotify), so
/// waiting for a device to come back costs no polling.
final class DeviceWatch {
  let fileDescriptor: Int32

  init(directory: String) throws {
    fileDescriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    guard fileDescriptor >= 0,
      inotify_add_watch(fileDescriptor, directory, UInt32(IN_CREATE | IN_ATTRIB)) >= 0
    else {
      throw TiltError(
        "cannot watch \(directory) for the device to come back: \(Errno.current)")
    }
  }

  /// Drains the notifications; true when there were any.
  func changed() -> Bool {
    var buffer = [UInt8](repeating: 0, count: 4096)
    var any = false
    while read(fileDescriptor, &buffer, buffer.count) > 0 { any = true }
    return any
  }

  deinit { close(fileDescriptor) }
}
