import Glibc

/// The write end of the self-pipe; a plain global so the signal handler only loads it.
private nonisolated(unsafe) var signalPipeWriteEnd: Int32 = -1

/// Turns SIGINT, SIGTERM and SIGWINCH into bytes on a pipe that `poll()` can watch,
/// so the live loop sleeps in one place and handles signals in order.
package final class SignalPipe {
  /// The read end, for `poll()`.
  package let fileDescriptor: Int32
  private let writeEnd: Int32

  package init(signals: [Int32] = [SIGINT, SIGTERM, SIGWINCH]) throws {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw SystemCallError("cannot create a pipe for signals", errno: .current)
    }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    fileDescriptor = ends[0]
    writeEnd = ends[1]
    signalPipeWriteEnd = writeEnd
    for signal in signals {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { number in
        var byte = UInt8(truncatingIfNeeded: number)
        let saved = errno
        _ = write(signalPipeWriteEnd, &byte, 1)
        errno = saved
      }
      action.sa_flags = SA_RESTART
      sigemptyset(&action.sa_mask)
      sigaction(signal, &action, nil)
    }
    // A process may start with these blocked (a parent's thread mask is
    // inherited through exec): then Ctrl-C and SIGTERM would never arrive.
    var handled = sigset_t()
    sigemptyset(&handled)
    for signal in signals { sigaddset(&handled, signal) }
    pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    var ignore = sigaction()
    ignore.__sigaction_handler.sa_handler = SIG_IGN
    sigaction(SIGPIPE, &ignore, nil)
  }

  /// The signals that arrived since the last call, oldest first.
  package func drain() -> [Int32] {
    var buffer = [UInt8](repeating: 0, count: 64)
    var received: [Int32] = []
    while true {
      let n = read(fileDescriptor, &buffer, buffer.count)
      guard n > 0 else { break }
      received += buffer[..<n].map { Int32($0) }
    }
    return received
  }

  deinit {
    signalPipeWriteEnd = -1
    close(fileDescriptor)
    close(writeEnd)
  }
}

/// Ignores SIGPIPE, so that a write to a closed pipe fails with `EPIPE`
/// instead of killing the process.
package func ignoreBrokenPipe() {
  var ignore = sigaction()
  ignore.__sigaction_handler.sa_handler = SIG_IGN
  sigaction(SIGPIPE, &ignore, nil)
}
