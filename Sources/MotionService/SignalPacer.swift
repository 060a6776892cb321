/// When a client's next Motion signal is due: one per interval while
/// samples arrive, with the newest sample, judged on the samples' own clock
/// (µs) so that a replay paces as the device did.
///
/// A sample a quarter of an interval early still counts, so that a device
/// whose rate equals the interval does not drop every other signal to its
/// jitter; after a gap the next one is due at least three quarters of an
/// interval on, so signals never come closer than half an interval.
struct SignalPacer: Hashable, Sendable {
  /// Seconds between signals.
  var interval: Double
  private var due: UInt64?

  init(interval: Double) { self.interval = interval }

  /// Whether a signal goes out with the sample of `timestamp` (µs).
  mutating func isDue(at timestamp: UInt64) -> Bool {
    let step = UInt64(interval * 1e6)
    guard let due else {
      self.due = timestamp + step
      return true
    }
    guard timestamp + step / 4 >= due else { return false }
    self.due = max(due + step, timestamp + step - step / 4)
    return true
  }
}
