import SystemCalls

/// Wakes the live loop when nodes appear in the input directory (inotify), so
/// waiting for a device to come back costs no polling.
package final class DeviceWatch {
  package let fileDescriptor: Int32

  package init(directory: String) throws {
    do {
      fileDescriptor = try Syscall.watchDirectory(directory)
    } catch {
      throw MotionError.cannotWatch(directory: directory, error)
    }
  }

  /// Drains the notifications; true when there were any.
  package func changed() -> Bool {
    var any = false
    while !Syscall.readAvailable(fileDescriptor, limit: 4096).isEmpty { any = true }
    return any
  }

  deinit { Syscall.close(fileDescriptor) }
}
