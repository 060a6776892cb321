import Glibc

extension Syscall {
  /// An inotify descriptor (non-blocking) watching `directory` for entries
  /// that appear or go away (`IN_CREATE | IN_DELETE | IN_ATTRIB`): a device
  /// node's removal wakes a loop whose device does not say it left (an IIO
  /// buffer's `poll()` stays silent once its device is gone).
  package static func watchDirectoryForRemoval(_ directory: String) throws(Errno) -> Int32 {
    let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    if fd < 0 { throw Errno.current }
    if inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB)) < 0 {
      let error = Errno.current
      close(fd)
      throw error
    }
    return fd
  }
}
