import EvdevCore

/// Measures how a device really delivers samples: effective rate, interval
/// jitter, dropped frames and `MSC_TIMESTAMP` wraps.
///
/// Feed it frames in the order read; it never reads a clock. A sample is a frame
/// with an event other than `EV_SYN`. It is timed by its `MSC_TIMESTAMP` (µs,
/// unsigned 32-bit, wrapping) when the first sample has one, else by its event
/// time. A resync frame (after `SYN_DROPPED`, see `FrameReader`) is counted as a
/// drop, not a sample, and the interval across it is not measured. It keeps every
/// interval (8 bytes a sample): meant for a run of seconds, not hours.
public struct RateProbe: Sendable {
  private var clock: RateReport.Clock?
  private var previousMicroseconds: Int64?
  private var previousTimestamp: UInt32?
  private var wrapOffset: Int64 = 0
  private var intervals: [Int64] = []
  private var samples = 0
  private var untimed = 0
  private var resyncs = 0
  private var wraps = 0
  private var resets = 0

  public init() {}

  /// Adds one frame.
  public mutating func add(_ frame: Frame) {
    if frame.isResync {
      resyncs += 1
      previousMicroseconds = nil
      return
    }
    guard frame.events.contains(where: { $0.type != EventType.syn }) else { return }
    samples += 1
    let timestamp = frame.events.last { $0.type == EventType.msc && $0.code == MscCode.timestamp }
      .map { UInt32(bitPattern: $0.value) }
    if clock == nil { clock = timestamp == nil ? .event : .msc }
    let now: Int64
    switch clock {
    case .msc:
      guard let timestamp else {
        untimed += 1
        return
      }
      now = unwrap(timestamp)
    default:
      guard let time = frame.time else { return }
      now = time.totalMicroseconds
    }
    defer { previousMicroseconds = now }
    guard let previous = previousMicroseconds else { return }
    if now < previous {
      resets += 1
      return
    }
    intervals.append(now - previous)
  }

  /// Adds frames in order.
  public mutating func add(_ frames: [Frame]) {
    for frame in frames { add(frame) }
  }

  /// A 64-bit µs time line from the 32-bit counter: a step back by less than
  /// half the range is a wrap, a bigger one a reset (the device restarted its
  /// counter), which starts a new time line.
  private mutating func unwrap(_ timestamp: UInt32) -> Int64 {
    defer { previousTimestamp = timestamp }
    if let previous = previousTimestamp {
      switch MscTimestampStep(from: previous, to: timestamp) {
      case .forward(_, let wrapped):
        if wrapped {
          wraps += 1
          wrapOffset += Int64(1) << 32
        }
      case .reset:
        resets += 1
        previousMicroseconds = nil
      }
    }
    return wrapOffset + Int64(timestamp)
  }

  /// What was measured so far.
  public var report: RateReport {
    var report = RateReport(
      clock: clock, sampleCount: samples, untimedSamples: untimed, intervalCount: intervals.count,
      synDroppedCount: resyncs, timestampWraps: wraps, timestampResets: resets)
    guard !intervals.isEmpty else { return report }
    let sorted = intervals.sorted()
    let total = intervals.reduce(0, +)
    let count = Double(intervals.count)
    let meanMicroseconds = Double(total) / count
    let median =
      sorted.count % 2 == 1
      ? Double(sorted[sorted.count / 2])
      : Double(sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    let variance =
      intervals.reduce(0.0) { sum, interval in
        let deviation = Double(interval) - meanMicroseconds
        return sum + deviation * deviation
      } / count
    let p99Rank = Int((0.99 * count).rounded(.up)) - 1
    report.rateHz = total > 0 ? count / (Double(total) / 1_000_000) : nil
    report.meanIntervalMs = meanMicroseconds / 1000
    report.medianIntervalMs = median / 1000
    report.intervalStdDevMs = variance.squareRoot() / 1000
    report.intervalP99Ms = Double(sorted[max(0, p99Rank)]) / 1000
    if median > 0 {
      for interval in intervals where Double(interval) > 1.5 * median {
        report.gapCount += 1
        report.missedSamples += max(1, Int((Double(interval) / median).rounded()) - 1)
      }
    }
    return report
  }
}

/// What `RateProbe` measured. Intervals in milliseconds; `nil` where fewer than
/// two timed samples arrived.
public struct RateReport: Hashable, Sendable {
  /// Which time the samples were measured by.
  public enum Clock: String, Hashable, Sendable {
    /// `MSC_TIMESTAMP`, the device's own µs counter.
    case msc
    /// The kernel's event time stamp.
    case event
  }

  public var clock: Clock?
  /// Frames with data (not resyncs).
  public var sampleCount: Int
  /// Samples without `MSC_TIMESTAMP` on a device timed by it.
  public var untimedSamples: Int
  /// Intervals measured (between consecutive timed samples, not across a
  /// resync or a timestamp reset).
  public var intervalCount: Int
  /// Effective sample rate: intervals per second of measured intervals.
  public var rateHz: Double?
  public var meanIntervalMs: Double?
  public var medianIntervalMs: Double?
  /// Jitter: the standard deviation of the interval.
  public var intervalStdDevMs: Double?
  /// Jitter: the 99th percentile of the interval (nearest rank).
  public var intervalP99Ms: Double?
  /// `SYN_DROPPED` resyncs: the kernel's buffer overflowed.
  public var synDroppedCount: Int
  /// Intervals longer than 1.5 × the median: samples lost before the kernel
  /// (or, for a device without `MSC_TIMESTAMP`, reports the kernel suppressed
  /// because no value changed).
  public var gapCount = 0
  /// Samples those gaps are missing: round(interval / median) − 1 each, at least 1.
  public var missedSamples = 0
  /// Times `MSC_TIMESTAMP` wrapped past 2³² µs.
  public var timestampWraps: Int
  /// Times the time stamp went back by more than a wrap explains.
  public var timestampResets: Int

  /// Dropped frames in all: `SYN_DROPPED` resyncs plus samples missing in gaps.
  public var droppedFrames: Int { synDroppedCount + missedSamples }

  public init(
    clock: Clock?, sampleCount: Int, untimedSamples: Int = 0, intervalCount: Int,
    synDroppedCount: Int = 0, timestampWraps: Int = 0, timestampResets: Int = 0
  ) {
    self.clock = clock
    self.sampleCount = sampleCount
    self.untimedSamples = untimedSamples
    self.intervalCount = intervalCount
    self.synDroppedCount = synDroppedCount
    self.timestampWraps = timestampWraps
    self.timestampResets = timestampResets
  }
}
