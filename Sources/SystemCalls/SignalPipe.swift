import Glibc
import Synchronization

/// The write end of the innermost installed pipe's self-pipe (-1: none). An
/// atomic, because the signal handler loads it on whatever thread the signal
/// lands; a lock-free load is async-signal-safe.
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// A self-pipe that `poll()` can watch: signals asked for (SIGINT, SIGTERM,
/// SIGWINCH…) become bytes on it, and ``wake()`` from any thread writes one
/// too, so that the event loop sleeps in one place and handles both in order.
///
/// Handlers are installed (`sigaction`) only for the signals given, and
/// ``restore()`` (or the end of the pipe) puts back the dispositions, the
/// thread's signal mask and the handler of an enclosing pipe as they were. A
/// signal that arrived but was not drained is raised again after that, so
/// the previous handler gets it: none is dropped.
///
/// Use from one thread; not Sendable. Only ``wake()`` (or ``waker``'s, which
/// is `Sendable`) may be called from another.
package final class SignalPipe {
  /// The read end, for `poll()`.
  package let fileDescriptor: Int32
  /// The signals whose handlers this pipe installed.
  package let signals: [Int32]
  /// Wakes the loop from any thread; it owns both ends of the pipe.
  package let waker: Waker
  private var previousActions: [(signal: Int32, action: sigaction)] = []
  private var previousWriteEnd: Int32 = -1
  private var previousMask = sigset_t()
  private var installed = false

  /// The byte ``wake()`` writes: no signal has number 0.
  package static let wakeByte: Int32 = 0

  package init(signals: [Int32] = []) throws {
    let ends: (read: Int32, write: Int32)
    do { ends = try Syscall.nonBlockingPipe() } catch {
      throw SystemCallError("cannot create a pipe for the event loop", errno: error)
    }
    fileDescriptor = ends.read
    waker = Waker(readEnd: ends.read, writeEnd: ends.write)
    self.signals = signals
    guard !signals.isEmpty else { return }
    previousWriteEnd = signalPipeWriteEnd.exchange(ends.write, ordering: .sequentiallyConsistent)
    for signal in signals {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { number in
        var byte = UInt8(truncatingIfNeeded: number)
        let saved = errno
        _ = write(signalPipeWriteEnd.load(ordering: .sequentiallyConsistent), &byte, 1)
        errno = saved
      }
      action.sa_flags = SA_RESTART
      sigemptyset(&action.sa_mask)
      var old = sigaction()
      sigaction(signal, &action, &old)
      previousActions.append((signal, old))
    }
    // A process may start with these blocked (a parent's thread mask is
    // inherited through exec): then Ctrl-C and SIGTERM would never arrive.
    var handled = sigset_t()
    sigemptyset(&handled)
    for signal in signals { sigaddset(&handled, signal) }
    pthread_sigmask(SIG_UNBLOCK, &handled, &previousMask)
    installed = true
  }

  /// Wakes the loop that watches this pipe; safe from any thread.
  package func wake() { waker.wake() }

  /// Wakes a signal pipe's loop from another thread. It keeps both ends of
  /// the pipe open while held, so that a wake after the loop is gone fills a
  /// pipe nobody reads instead of raising SIGPIPE or writing to a reused
  /// descriptor.
  package final class Waker: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32
    init(readEnd: Int32, writeEnd: Int32) {
      self.readEnd = readEnd
      self.writeEnd = writeEnd
    }

    /// Writes a ``SignalPipe/wakeByte``. A full pipe is already readable,
    /// so `EAGAIN` is no failure.
    package func wake() {
      var byte = UInt8(SignalPipe.wakeByte)
      _ = write(writeEnd, &byte, 1)
    }

    deinit {
      close(readEnd)
      close(writeEnd)
    }
  }

  /// The signals that arrived since the last call, oldest first; a
  /// ``wakeByte`` for each ``wake()``.
  package func drain() -> [Int32] {
    var buffer = [UInt8](repeating: 0, count: 64)
    var received: [Int32] = []
    while true {
      let n = read(fileDescriptor, &buffer, buffer.count)
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { break }
      received += buffer[..<n].map { Int32($0) }
    }
    return received
  }

  /// Puts back what the pipe changed in the process: each signal's previous
  /// disposition, the enclosing pipe's handler, the thread's signal mask.
  /// Signals that came and were not drained are raised again for the
  /// previous handler. Safe to call twice.
  package func restore() {
    guard installed else { return }
    installed = false
    for (signal, action) in previousActions.reversed() {
      var action = action
      sigaction(signal, &action, nil)
    }
    signalPipeWriteEnd.store(previousWriteEnd, ordering: .sequentiallyConsistent)
    let pending = drain().filter { $0 != SignalPipe.wakeByte }
    pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    for signal in pending { raise(signal) }
  }

  /// The pipe itself closes with ``waker``, when its last holder lets go.
  deinit { restore() }
}

/// Ignores SIGPIPE, so that a write to a closed pipe fails with `EPIPE`
/// instead of killing the process: for a command line tool that writes to
/// a pipe (`tilt-cli … | head`), not for a library.
package func ignoreBrokenPipe() {
  var ignore = sigaction()
  ignore.__sigaction_handler.sa_handler = SIG_IGN
  sigaction(SIGPIPE, &ignore, nil)
}

/// Installs `handler` for `signals` with `sigaction` (no `SA_RESTART`): the
/// one way tilt sets a signal's handler outside ``SignalPipe``.
package func installSignalHandler(
  _ handler: @convention(c) (Int32) -> Void, for signals: [Int32]
) {
  for signal in signals {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    sigaction(signal, &action, nil)
  }
}

/// Sets `signal` back to its default action (`SIG_DFL`, by `sigaction`);
/// async-signal-safe.
package func resetSignalToDefault(_ signal: Int32) {
  var action = sigaction()
  action.__sigaction_handler.sa_handler = SIG_DFL
  sigemptyset(&action.sa_mask)
  sigaction(signal, &action, nil)
}

/// Raises `signal` in this process (`raise(3)`); async-signal-safe.
package func raiseSignal(_ signal: Int32) { raise(signal) }

extension SignalNumber {
  /// The corresponding C constant is `SIGUSR1`.
  package static let user1: Int32 = SIGUSR1
}
