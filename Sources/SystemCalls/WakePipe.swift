import Glibc

/// A pipe that another thread writes to so that a loop asleep in `poll()`
/// wakes up: ``wake()`` from any thread, ``fileDescriptor`` in the loop's
/// poll set, ``drain()`` on the loop's thread.
package final class WakePipe: Sendable {
  /// The read end, for `poll()`.
  package let fileDescriptor: Int32
  private let writeEnd: Int32

  package init() throws {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw SystemCallError("cannot create a pipe to wake the loop", errno: .current)
    }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    fileDescriptor = ends[0]
    writeEnd = ends[1]
  }

  /// Makes ``fileDescriptor`` readable. A full pipe is already readable, so
  /// `EAGAIN` is no failure.
  package func wake() {
    var byte: UInt8 = 1
    while Glibc.write(writeEnd, &byte, 1) < 0 && errno == EINTR {}
  }

  /// Empties the pipe, so that the next `poll()` sleeps again.
  package func drain() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while Glibc.read(fileDescriptor, &buffer, buffer.count) > 0 {}
  }

  deinit {
    Syscall.close(fileDescriptor)
    Syscall.close(writeEnd)
  }
}
