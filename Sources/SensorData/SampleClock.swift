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
///
/// No input overflows it: every sum and difference of times saturates at
/// the ends of `Int64` (a clock that has counted 2⁶³ µs, 292,000 years,
/// stays there). Crafted recordings can get there: event times that jump
/// back and forth by the reader's largest, 10¹² s, add 10¹⁸ µs at each step
/// forward.
///
/// The `MSC_TIMESTAMP` clock's rate is checked against the event clock's
/// (``ClockRateCheck``); where they disagree by more than the clocks' jitter
/// explains, each `MSC_TIMESTAMP` step is scaled to the event clock's rate
/// (contract §1.7): the steps keep the device's fine spacing, the seconds are the
/// kernel's.
struct SampleClock {
  let useMsc: Bool
  /// Microseconds since the first frame.
  private(set) var now: Int64 = 0
  private(set) var wraps = 0
  private(set) var resets = 0
  /// The `MSC_TIMESTAMP` clock against the event clock, since the first frame
  /// or the last counter reset.
  private(set) var rateCheck = ClockRateCheck()
  private var lastEventTime: Int64?
  private var lastMsc: UInt32?
  private var mscAnchor: Int64 = 0
  /// `MSC_TIMESTAMP` µs and event time at the start of the rate check's line.
  private var checkMsc: Int64 = 0
  private var checkEventOrigin: Int64 = 0
  /// The fraction of a µs that scaled steps have not yet added to `now`.
  private var carry: Double = 0

  init(useMsc: Bool) { self.useMsc = useMsc }

  /// Advances to a frame stamped `eventTime` (µs) and, when the frame has
  /// one, `msc`; returns microseconds since the first frame.
  mutating func advance(eventTime: Int64, msc: UInt32?) -> Int64 {
    defer { lastEventTime = eventTime }
    guard let lastEventTime else {
      if useMsc, let msc {
        lastMsc = msc
        restartRateCheck(eventTime: eventTime)
      }
      return 0
    }
    let byEventTime = now.saturatingAdd(Swift.max(0, eventTime.saturatingSubtract(lastEventTime)))
    var candidate = byEventTime
    if useMsc, let msc {
      if let lastMsc {
        switch MscTimestampStep(from: lastMsc, to: msc) {
        case .forward(let step, let wrapped):
          if wrapped { wraps += 1 }
          checkMsc = checkMsc.saturatingAdd(Int64(step))
          rateCheck.add(
            msc: Double(checkMsc), event: Double(eventTime.saturatingSubtract(checkEventOrigin)))
          let scaled = Double(step) * rateCheck.appliedRate + carry
          let whole = scaled.rounded(.down)
          carry = scaled - whole
          candidate = mscAnchor.saturatingAdd(Int64(whole))
        case .reset:
          resets += 1
          restartRateCheck(eventTime: eventTime)
        }
      } else {
        restartRateCheck(eventTime: eventTime)
      }
      now = Swift.max(now, candidate)
      lastMsc = msc
      mscAnchor = now
      return now
    }
    now = Swift.max(now, candidate)
    return now
  }

  /// Starts a new line for the rate check at this frame; a correction found
  /// before stays until the new line says otherwise.
  private mutating func restartRateCheck(eventTime: Int64) {
    rateCheck.restart()
    checkMsc = 0
    checkEventOrigin = eventTime
    rateCheck.add(msc: 0, event: 0)
  }
}

extension Int64 {
  /// `self + other`, or the nearest end of the range where that overflows.
  @inline(__always)
  fileprivate func saturatingAdd(_ other: Int64) -> Int64 {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }

  /// `self - other`, or the nearest end of the range where that overflows.
  @inline(__always)
  fileprivate func saturatingSubtract(_ other: Int64) -> Int64 {
    let (difference, overflow) = subtractingReportingOverflow(other)
    return overflow ? (other < 0 ? .max : .min) : difference
  }
}

/// Whether a device's `MSC_TIMESTAMP` clock runs at the event clock's rate.
///
/// Each frame with `MSC_TIMESTAMP` adds a point (MSC µs, event µs), both
/// since the start of the line. An event time is the device's time plus a
/// delivery delay that is never negative and varies: USB and Bluetooth
/// polling, reports that carry several samples at one event time
/// (hid-nintendo: three), a reader or a virtual machine that stalls and
/// catches up. Those delays make a least-squares line through every point
/// wander (by more than 1 % after stalls of 0.1 s). What does not wander is
/// the least delay: so the line is fitted through the point of least
/// offset (event − MSC) in each ``bucketSeconds`` of `MSC_TIMESTAMP` (the
/// lower envelope, as clock-skew estimation over a network does): a robust
/// line first (Theil–Sen), then least squares without the buckets whose
/// least delay was still late by it (a stall that covered a whole bucket). `rate` is the event
/// clock's µs per `MSC_TIMESTAMP` µs along it; `rateError` its standard error.
///
/// The event clock's rate wins when it differs from 1 by more than 0.5 %
/// and by more than four standard errors, over at least 0.5 s and 20
/// frames; it stays winning, following the rate, until the difference falls
/// below half the 0.5 %: one rate, not two in turn. hid-nintendo's counter,
/// made up from a truncated average report interval, runs up to 7 % slow
/// (15.1 ms reports stamped 15 ms: 0.67 %); a crystal's error is a hundred
/// times smaller. The line is fitted over the last ``maximumBuckets``
/// buckets (4 s): hid-nintendo recomputes its average every 300 reports
/// (4.5 s at 15 ms), and its counter's rate changes with it, which a line
/// since the start would blend forever; 4 s of least delays still give the
/// rate to a few parts in 10⁴.
public struct ClockRateCheck: Hashable, Sendable {
  /// A bucket's point of least offset: MSC µs and event − MSC µs.
  struct Point: Hashable, Sendable {
    var msc: Double
    var offset: Double
  }

  /// Frames on the current line.
  public private(set) var count = 0
  /// The least-offset point of each closed bucket, oldest first.
  private var minima: [Point] = []
  /// The open bucket's index and its least-offset point so far.
  private var bucket = 0.0
  private var open: Point?
  private var spanStart = 0.0
  private var spanEnd = 0.0
  private var eventSpanStart = 0.0
  private var eventSpanEnd = 0.0
  /// Event µs per `MSC_TIMESTAMP` µs along the current line, or nil before
  /// two buckets (or two points in the first).
  public private(set) var rate: Double?
  /// The standard error of `rate`, or nil with fewer than three points.
  public private(set) var rateError: Double?
  /// Whether `MSC_TIMESTAMP` steps are scaled to the event clock's rate.
  public private(set) var eventClockWins = false
  /// The rate applied to each `MSC_TIMESTAMP` step: `rate` while the event
  /// clock wins, else 1.
  public private(set) var appliedRate = 1.0

  /// The smallest relative rate difference that is ever corrected.
  public static let minimumDifference = 0.005
  /// The shortest line, in `MSC_TIMESTAMP` seconds, that can decide.
  public static let minimumSeconds = 0.5
  /// The fewest frames that can decide.
  public static let minimumFrames = 20
  /// The `MSC_TIMESTAMP` seconds of one bucket: half of the shortest line
  /// that decides, so it has points of two buckets and more; long enough
  /// that a device's reports (every 4 to 16 ms) put tens in each, so the
  /// least delay of each is near the device's least.
  public static let bucketSeconds = 0.25
  /// The most buckets the line is fitted through: the last 4 s.
  public static let maximumBuckets = 16
  /// A bucket whose least offset is later than the line by more than this
  /// (µs), and than four times the buckets' typical distance from it, is
  /// left out of the second pass: a millisecond is more than a device's
  /// least delay varies, less than a stall.
  static let lateBucket = 1000.0

  public init() {}

  /// The length of the current line in `MSC_TIMESTAMP` seconds.
  public var seconds: Double { (spanEnd - spanStart) / 1_000_000 }

  /// Adds a frame at `msc` µs on the `MSC_TIMESTAMP` clock and `event` µs on
  /// the event clock, both since the start of the line.
  public mutating func add(msc: Double, event: Double) {
    if count == 0 {
      spanStart = msc
      spanEnd = msc
      eventSpanStart = event
      eventSpanEnd = event
      bucket = (msc / (Self.bucketSeconds * 1_000_000)).rounded(.down)
    }
    spanStart = Swift.min(spanStart, msc)
    spanEnd = Swift.max(spanEnd, msc)
    eventSpanStart = Swift.min(eventSpanStart, event)
    eventSpanEnd = Swift.max(eventSpanEnd, event)
    count += 1
    let point = Point(msc: msc, offset: event - msc)
    let index = (msc / (Self.bucketSeconds * 1_000_000)).rounded(.down)
    var changed = false
    if index != bucket, let closed = open {
      minima.append(closed)
      if minima.count > Self.maximumBuckets {
        minima.removeFirst(minima.count - Self.maximumBuckets)
      }
      open = nil
      bucket = index
      changed = true
    }
    if open == nil || point.offset < open!.offset {
      open = point
      changed = changed || minima.count < 3
    }
    // The line changes only with its points: at most every bucketSeconds
    // once three buckets are closed.
    if changed { fit() }
    decide()
  }

  /// Starts a new line (after a counter reset); the decision so far stands.
  public mutating func restart() {
    let wins = eventClockWins
    let applied = appliedRate
    self = ClockRateCheck()
    eventClockWins = wins
    appliedRate = applied
  }

  /// The line through the buckets' least offsets, then again without the
  /// buckets that were late.
  private mutating func fit() {
    // The open bucket counts only until three are closed: its least delay so
    // far may still be a stall's.
    var all = minima
    if let open, minima.count < 3 { all.append(open) }
    guard var line = Self.line(through: all, skip: { _ in false }) else {
      rate = nil
      rateError = nil
      return
    }
    if all.count >= 4 {
      // A robust first line (Theil–Sen: the median of the pairwise slopes,
      // then the median intercept), so that a late bucket cannot hide
      // itself by pulling the line; then least squares without the late.
      var slopes: [Double] = []
      slopes.reserveCapacity(all.count * (all.count - 1) / 2)
      for a in 0..<all.count {
        for b in (a + 1)..<all.count where all[b].msc != all[a].msc {
          slopes.append((all[b].offset - all[a].offset) / (all[b].msc - all[a].msc))
        }
      }
      let slope = Self.median(slopes)
      let intercept = Self.median(all.map { $0.offset - slope * $0.msc })
      let typical = Self.median(all.map { abs($0.offset - intercept - slope * $0.msc) })
      let late = Swift.max(Self.lateBucket, 4 * 1.4826 * typical)
      if let kept = Self.line(
        through: all, skip: { $0.offset - intercept - slope * $0.msc > late })
      {
        line = kept
      }
    }
    rate = 1 + line.slope
    rateError = line.slopeError
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  struct Line {
    var slope: Double
    var intercept: Double
    var slopeError: Double?
    func at(_ x: Double) -> Double { intercept + slope * x }
  }

  /// Least squares through the points not skipped; nil without two distinct ones.
  static func line(through points: [Point], skip: (Point) -> Bool) -> Line? {
    var n = 0.0
    var meanX = 0.0
    var meanY = 0.0
    for p in points where !skip(p) {
      n += 1
      meanX += (p.msc - meanX) / n
      meanY += (p.offset - meanY) / n
    }
    guard n >= 2 else { return nil }
    var sxx = 0.0
    var sxy = 0.0
    for p in points where !skip(p) {
      sxx += (p.msc - meanX) * (p.msc - meanX)
      sxy += (p.msc - meanX) * (p.offset - meanY)
    }
    guard sxx > 0 else { return nil }
    let slope = sxy / sxx
    let intercept = meanY - slope * meanX
    var error: Double?
    if n >= 3 {
      var sse = 0.0
      for p in points where !skip(p) {
        let r = p.offset - (intercept + slope * p.msc)
        sse += r * r
      }
      error = (sse / (n - 2) / sxx).squareRoot()
    }
    return Line(slope: slope, intercept: intercept, slopeError: error)
  }

  /// The rates a `MSC_TIMESTAMP` clock can plausibly be off by: a counter
  /// made up from truncated milliseconds (hid-nintendo: 14 for 15 ms, ×1.07)
  /// stays well inside; outside it the event times are what is wrong (a
  /// burst of queued reports read at once, a writer catching up), and
  /// following them would stop the clock.
  public static let plausibleRates = 0.8...1.25

  private mutating func decide() {
    guard count >= Self.minimumFrames, seconds >= Self.minimumSeconds,
      (eventSpanEnd - eventSpanStart) / 1_000_000 >= Self.minimumSeconds, let rate,
      let error = rateError, Self.plausibleRates.contains(rate)
    else { return }
    let difference = abs(rate - 1)
    if eventClockWins {
      if difference < Self.minimumDifference / 2 { eventClockWins = false }
    } else if difference > Swift.max(Self.minimumDifference, 4 * error) {
      eventClockWins = true
    }
    appliedRate = eventClockWins ? rate : 1
  }
}
