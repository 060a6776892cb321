import Glibc

extension Syscall {
  /// An inotify descriptor (non-blocking) watching `directory` for entries
  /// that appear or go away (`IN_CREATE | IN_DELETE | IN_ATTRIB`): a device
  /// node's removal wakes a loop whose device does not say it left (an IIO
  /// buffer's `poll()` stays silent once its device is gone).
  package static func watchDirectoryForRemoval(_ directory: String) throws(Errno) -> Int32 {
    try watch(directory, events: UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB))
  }
}

extension Syscall {
  /// A non-blocking inotify descriptor watching `directory` for `events`.
  static func watch(_ directory: String, events: UInt32) throws(Errno) -> Int32 {
    let fd = try checked("inotify_init1") { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
    do throws(Errno) {
      try checked("inotify_add_watch") { inotify_add_watch(fd, directory, events) }
    } catch {
      close(fd)
      throw error
    }
    return fd
  }
}
