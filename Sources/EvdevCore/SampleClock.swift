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
/// (SPEC §1): the steps keep the device's fine spacing, the seconds are the
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
  func saturatingAdd(_ other: Int64) -> Int64 {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }

  /// `self - other`, or the nearest end of the range where that overflows.
  @inline(__always)
  func saturatingSubtract(_ other: Int64) -> Int64 {
    let (difference, overflow) = subtractingReportingOverflow(other)
    return overflow ? (other < 0 ? .max : .min) : difference
  }
}

/// Whether a device's `MSC_TIMESTAMP` clock runs at the event clock's rate.
///
/// Each frame with `MSC_TIMESTAMP` adds a point (MSC µs, event µs), both
/// since the start of the line; a least-squares line through them gives the
/// event clock's µs per `MSC_TIMESTAMP` µs (`rate`) and its standard error,
/// which grows with the jitter of the event times (USB and Bluetooth
/// delivery, reports that carry several samples). The event clock's rate wins
/// when it differs from 1 by more than 0.5 % and by more than four standard
/// errors, over at least 0.5 s and 20 frames; it stops winning when the
/// difference falls below half of that. hid-nintendo's counter, made up from
/// a truncated average report interval, runs 6 % slow; a crystal's error is
/// a hundred times smaller.
public struct ClockRateCheck: Hashable, Sendable {
  /// Frames on the current line.
  public private(set) var count = 0
  private var meanMsc = 0.0
  private var meanEvent = 0.0
  private var sumMscMsc = 0.0
  private var sumMscEvent = 0.0
  private var sumEventEvent = 0.0
  private var spanStart = 0.0
  private var spanEnd = 0.0
  private var eventSpanStart = 0.0
  private var eventSpanEnd = 0.0
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

  public init() {}

  /// Event µs per `MSC_TIMESTAMP` µs along the current line, or nil before two
  /// distinct points.
  public var rate: Double? {
    guard count >= 2, sumMscMsc > 0 else { return nil }
    return sumMscEvent / sumMscMsc
  }

  /// The standard error of `rate`, or nil with fewer than three points.
  public var rateError: Double? {
    guard count >= 3, sumMscMsc > 0 else { return nil }
    let residual = Swift.max(0, sumEventEvent - sumMscEvent * sumMscEvent / sumMscMsc)
    return (residual / Double(count - 2) / sumMscMsc).squareRoot()
  }

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
    }
    spanStart = Swift.min(spanStart, msc)
    spanEnd = Swift.max(spanEnd, msc)
    eventSpanStart = Swift.min(eventSpanStart, event)
    eventSpanEnd = Swift.max(eventSpanEnd, event)
    count += 1
    // Welford's update of the means and co-moments.
    let n = Double(count)
    let dMsc = msc - meanMsc
    let dEvent = event - meanEvent
    meanMsc += dMsc / n
    meanEvent += dEvent / n
    sumMscMsc += dMsc * (msc - meanMsc)
    sumMscEvent += dMsc * (event - meanEvent)
    sumEventEvent += dEvent * (event - meanEvent)
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
      if difference < Swift.max(Self.minimumDifference, 4 * error) / 2 { eventClockWins = false }
    } else if difference > Swift.max(Self.minimumDifference, 4 * error) {
      eventClockWins = true
    }
    appliedRate = eventClockWins ? rate : 1
  }
}
