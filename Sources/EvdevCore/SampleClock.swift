/// Turns per-frame device times into seconds since the first frame, never
/// going backwards.
///
/// With `MSC_TIMESTAMP` (µs, unsigned 32-bit) the step between two frames is
/// the counter's difference modulo 2³², so a wrap at 2³² is a small step
/// forward. A difference of 2³¹ µs or more (about 36 minutes) cannot be a
/// step forward between two reports: it is the device resetting its counter
/// (a reconnect, a power cycle), and that step is timed by the event times
/// instead. Frames without `MSC_TIMESTAMP`, and every frame of a device
/// timed by events, step by the event time difference; a step backwards
/// counts as zero.
struct SampleClock {
  let useMsc: Bool
  /// Microseconds since the first frame.
  private(set) var now: Int64 = 0
  private(set) var wraps = 0
  private(set) var resets = 0
  private var lastEventTime: Int64?
  private var lastMsc: UInt32?
  private var mscAnchor: Int64 = 0

  init(useMsc: Bool) { self.useMsc = useMsc }

  /// Advances to a frame stamped `eventTime` (µs) and, when the frame has
  /// one, `msc`; returns microseconds since the first frame.
  mutating func advance(eventTime: Int64, msc: UInt32?) -> Int64 {
    defer { lastEventTime = eventTime }
    guard let lastEventTime else {
      if useMsc, let msc { lastMsc = msc }
      return 0
    }
    let byEventTime = now + Swift.max(0, eventTime - lastEventTime)
    var candidate = byEventTime
    if useMsc, let msc {
      if let lastMsc {
        let step = msc &- lastMsc
        if step < 1 << 31 {
          if msc < lastMsc { wraps += 1 }
          candidate = mscAnchor + Int64(step)
        } else {
          resets += 1
        }
      }
      now = Swift.max(now, candidate)
      lastMsc = msc
      mscAnchor = now
      return now
    }
    now = Swift.max(now, candidate)
    return now
  }
}
