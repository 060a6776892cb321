import Glibc

/// One `poll()` over a few descriptors: the only place the event loop sleeps.
package enum Poller {
  /// Waits until one of `descriptors` is readable (or hung up), or `deadline`
  /// passes; `nil` waits for ever. Returns the descriptors that are ready.
  package static func wait(for descriptors: [Int32], until deadline: MonotonicInstant?) throws
    -> Set<Int32>
  {
    var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    // Rounded up, so that a wake-up is never before its deadline; made
    // again for each try after EINTR.
    func milliseconds() -> Int32 {
      deadline.map {
        let left = $0.timeLeft.nanoseconds
        return Int32(min((left + 999_999) / 1_000_000, 86_400_000))
      } ?? -1
    }
    do {
      _ = try Syscall.nonBlocking("poll") { poll(&fds, nfds_t(fds.count), milliseconds()) }
    } catch {
      throw SystemCallError("poll failed", errno: error)
    }
    return Set(fds.filter { $0.revents != 0 }.map(\.fd))
  }
}

/// Seconds on the monotonic clock, for pacing against the wall.
package func monotonicSeconds() -> Double { MonotonicInstant.now.secondsValue }
