import SystemCalls

/// At most `limit` answers a second per sender address (its port aside), in
/// a window of one second from the first answer counted: version and
/// port-info answers, so that the server cannot be made to send more than a
/// little to a spoofed address. Time is given, never read.
struct AnswerRateLimit {
  var limit: Int
  /// Addresses allowed at once; beyond them, the oldest windows are forgotten.
  var capacity = 256
  private var windows: [[UInt8]: (start: Double, count: Int)] = [:]

  init(limit: Int) { self.limit = limit }

  /// Whether one more answer to `address` at `now` (seconds) is allowed;
  /// counts it when it is.
  mutating func allows(_ address: SocketAddress, now: Double) -> Bool {
    let key = address.bytes
    if var window = windows[key], now - window.start < 1 {
      guard window.count < limit else { return false }
      window.count += 1
      windows[key] = window
      return true
    }
    if windows.count >= capacity { windows = windows.filter { now - $0.value.start < 1 } }
    if windows.count >= capacity { return false }
    windows[key] = (now, 1)
    return true
  }
}
