import Glibc
import Synchronization
import Testing

@testable import SystemCalls

/// A blocking `read(2)` that a signal interrupts (handler without
/// `SA_RESTART`, so the kernel returns `EINTR`): the helper reads on and
/// returns the byte written after the signal.
@Suite(.serialized) struct InterruptedReadTests {
  final class Reader: Sendable {
    let fd: Int32
    let attempts = Atomic<Int>(0)
    let finished = Atomic<Bool>(false)
    /// What the read gave, or how it failed; read after the thread is joined.
    let outcome = Mutex<(bytes: [UInt8], failure: Errno?)>(([], nil))

    init(fd: Int32) { self.fd = fd }

    func run() {
      // The thread that started this one may block the signal; this one must not.
      var signals = sigset_t()
      sigemptyset(&signals)
      sigaddset(&signals, SIGUSR1)
      pthread_sigmask(SIG_UNBLOCK, &signals, nil)
      var buffer = [UInt8](repeating: 0, count: 8)
      let count = buffer.withUnsafeMutableBytes { raw -> Int in
        do throws(Errno) {
          return try Syscall.checked("read") {
            attempts.add(1, ordering: .sequentiallyConsistent)
            return Glibc.read(fd, raw.baseAddress, raw.count)
          }
        } catch {
          outcome.withLock { $0.failure = error }
          return 0
        }
      }
      outcome.withLock { $0.bytes = Array(buffer[..<count]) }
      finished.store(true, ordering: .sequentiallyConsistent)
    }
  }

  @Test func aSignalDuringReadIsRetried() throws {
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0  // no SA_RESTART: the read returns EINTR
    var previous = sigaction()
    try #require(sigaction(SIGUSR1, &action, &previous) == 0)
    defer { sigaction(SIGUSR1, &previous, nil) }

    let reader = Reader(fd: ends[0])
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { context in
        Unmanaged<Reader>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      }, Unmanaged.passRetained(reader).toOpaque())
    try #require(started == 0)
    // Signal until the read has been retried at least once, or has ended
    // (bounded: 20 000 signals, a millisecond apart).
    var tries = 0
    while reader.attempts.load(ordering: .sequentiallyConsistent) < 2
      && !reader.finished.load(ordering: .sequentiallyConsistent) && tries < 20_000
    {
      pthread_kill(thread, SIGUSR1)
      usleep(1000)
      tries += 1
    }
    var byte: UInt8 = 42
    #expect(write(ends[1], &byte, 1) == 1)
    pthread_join(thread, nil)
    #expect(reader.attempts.load(ordering: .sequentiallyConsistent) >= 2)
    #expect(reader.outcome.withLock { $0.failure } == nil)
    #expect(reader.outcome.withLock { $0.bytes } == [42])
  }
}
