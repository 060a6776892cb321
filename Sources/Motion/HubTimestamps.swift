import SystemCalls

/// A hub device's motion timestamps, µs (contract §7's clock): the source's
/// time plus an offset fixed at the first sample (the monotonic clock then,
/// so that two devices' clocks are near each other), moved on when a reopened
/// source starts its time again so that the timestamp never goes back.
package struct HubTimestamps {
  private var offset: Double?
  private var last: UInt64?
  private var restarted = false

  package init() {}

  /// The next sample starts the source anew.
  package mutating func restart() { restarted = true }

  package mutating func microseconds(for time: Double) -> UInt64 {
    let micros = (time * 1e6).rounded()
    if offset == nil { offset = Double(MonotonicInstant.now.nanoseconds / 1000) - micros }
    var value = UInt64(max(0, micros + offset!))
    if restarted, let last, value <= last {
      offset! += Double(last + 1 - value)
      value = last + 1
    }
    restarted = false
    last = value
    return value
  }
}

/// Events counted over a sliding second, for a rate shown to a person.
struct RateWindow {
  private var times: [Double] = []

  mutating func count(at now: Double) {
    times.append(now)
    if times.count > 4096 || (times.first.map { now - $0 > 2 } ?? false) {
      times.removeAll { now - $0 > 1 }
    }
  }

  mutating func reset() { times.removeAll() }

  func rate(now: Double) -> Double { Double(times.filter { now - $0 <= 1 }.count) }
}
