import Glibc

/// A pipe that another thread writes to so that a loop asleep in `poll()`
/// wakes up: ``wake()`` from any thread, ``fileDescriptor`` in the loop's
/// poll set, ``drain()`` on the loop's thread.
package final class WakePipe: Sendable {
  /// The read end, for `poll()`.
  package let fileDescriptor: Int32
  private let writeEnd: Int32

  package init() throws {
    let ends: (read: Int32, write: Int32)
    do { ends = try Syscall.nonBlockingPipe() } catch {
      throw SystemCallError("cannot create a pipe to wake the loop", errno: error)
    }
    fileDescriptor = ends.read
    writeEnd = ends.write
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
