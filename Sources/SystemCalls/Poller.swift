import Glibc

/// One `poll()` over a few descriptors: the only place the live loop sleeps.
package enum Poller {
  /// Waits until one of `descriptors` is readable (or hung up), or `timeout`
  /// seconds pass; `nil` waits for ever. Returns the descriptors that are ready.
  package static func wait(for descriptors: [Int32], timeout: Double?) throws -> Set<Int32> {
    var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let milliseconds: Int32 =
      timeout.map { Int32(min(max(($0 * 1000).rounded(.up), 0), 86_400_000)) } ?? -1
    while true {
      let n = poll(&fds, nfds_t(fds.count), milliseconds)
      if n >= 0 { break }
      if errno == EINTR { continue }
      throw SystemCallError("poll failed", errno: .current)
    }
    return Set(fds.filter { $0.revents != 0 }.map(\.fd))
  }
}

/// Seconds on the monotonic clock, for pacing against the wall.
package func monotonicSeconds() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
