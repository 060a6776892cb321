import SensorData

/// Measures how a device really delivers samples: effective rate, interval
/// jitter, dropped frames and `MSC_TIMESTAMP` wraps.
///
/// Feed it frames in the order read; it never reads a clock. A sample is a frame
/// with an event other than `EV_SYN`. It is timed by its `MSC_TIMESTAMP` (µs,
/// unsigned 32-bit, wrapping) when the first sample has one, else by its event
/// time. A resync frame (after `SYN_DROPPED`, see `FrameReader`) is counted as a
/// drop, not a sample, and the interval across it is not measured.
///
/// Its memory is bounded whatever it is fed: the intervals are counted by
/// value (``IntervalCounts``), exactly while they take at most
/// ``IntervalCounts/capacity`` distinct values (a device's intervals take a
/// few hundred: its period and the jitter around it, in µs), and to about
/// 1 part in 2¹¹ of their value (at worst) beyond. Sums are in `Double`, so no
/// input overflows them.
public struct RateProbe: Sendable {
  private var clock: RateReport.Clock?
  private var previousMicroseconds: Int64?
  private var previousTimestamp: UInt32?
  private var wrapOffset: Int64 = 0
  var intervals = IntervalCounts()
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
    let (interval, overflow) = now.subtractingReportingOverflow(previous)
    if now < previous || overflow {
      resets += 1
      return
    }
    intervals.add(interval)
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
          // 2³¹ wraps (at least 4·10⁹ samples) would overflow the line:
          // start a new one instead, as after a reset.
          if wrapOffset > Int64.max / 2 {
            wrapOffset = 0
            previousMicroseconds = nil
          }
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
    guard intervals.count > 0 else { return report }
    let count = Double(intervals.count)
    let buckets = intervals.buckets
    func value(atRank rank: Int) -> Double { IntervalCounts.value(atRank: rank, in: buckets) }
    let meanMicroseconds = intervals.total / count
    let median = (value(atRank: (intervals.count - 1) / 2) + value(atRank: intervals.count / 2)) / 2
    let variance =
      buckets.reduce(0.0) { sum, bucket in
        let deviation = bucket.value - meanMicroseconds
        return sum + Double(bucket.count) * deviation * deviation
      } / count
    let p99Rank = Int((0.99 * count).rounded(.up)) - 1
    report.rateHz = intervals.total > 0 ? count / (intervals.total / 1_000_000) : nil
    report.meanIntervalMs = meanMicroseconds / 1000
    report.medianIntervalMs = median / 1000
    report.intervalStdDevMs = variance.squareRoot() / 1000
    report.intervalP99Ms = value(atRank: max(0, p99Rank)) / 1000
    if median > 0 {
      for bucket in buckets where bucket.value > 1.5 * median {
        report.gapCount += bucket.count
        let missed = (bucket.value / median).rounded() - 1
        report.missedSamples += bucket.count * Int(max(1, min(missed, Double(Int32.max))))
      }
    }
    return report
  }
}

/// Intervals (µs, not negative) counted by value, in bounded memory.
///
/// Each value is kept to `significantBits` binary digits (a bucket: the
/// value with its lower digits cleared, shown as the bucket's middle). It
/// starts exact (63 digits); whenever more than ``capacity`` distinct
/// buckets are held, every bucket loses one digit and neighbours merge, so
/// the memory stays at most ``capacity`` buckets. A device's intervals are
/// its period and the jitter around it, a few hundred distinct µs values,
/// so its figures are exact; intervals spread over two octaves (4096 buckets
/// of 12 digits) are kept to 1 part in 2¹¹ of their value, over all 63
/// octaves to 1 part in 2⁶.
struct IntervalCounts: Sendable {
  /// The most distinct buckets held.
  static let capacity = 4096

  private(set) var counts: [Int64: Int] = [:]
  private(set) var significantBits = 63
  /// Intervals counted.
  private(set) var count = 0
  /// Their sum, µs: exact while below 2⁵³ µs (285 years), never overflowing.
  private(set) var total = 0.0

  mutating func add(_ interval: Int64) {
    count += 1
    total += Double(interval)
    counts[bucket(of: interval), default: 0] += 1
    while counts.count > Self.capacity && significantBits > 1 {
      significantBits -= 1
      var merged: [Int64: Int] = [:]
      merged.reserveCapacity(counts.count)
      for (key, n) in counts { merged[bucket(of: key), default: 0] += n }
      counts = merged
    }
  }

  /// The lower end of the bucket that holds `value`.
  private func bucket(of value: Int64) -> Int64 {
    let width = Int64.bitWidth - value.leadingZeroBitCount
    let shift = width - significantBits
    return shift > 0 ? (value >> shift) << shift : value
  }

  /// The value shown for the bucket starting at `key`: its middle.
  private func representative(_ key: Int64) -> Double {
    let width = Int64.bitWidth - key.leadingZeroBitCount
    let shift = width - significantBits
    guard shift > 0 else { return Double(key) }
    return Double(key) + (Double(Int64(1) << shift) - 1) / 2
  }

  /// The buckets in increasing order of value.
  var buckets: [(value: Double, count: Int)] {
    counts.sorted { $0.key < $1.key }.map { (representative($0.key), $0.value) }
  }

  /// The value of rank `rank` (0 the smallest) among `buckets` (in order).
  static func value(atRank rank: Int, in buckets: [(value: Double, count: Int)]) -> Double {
    var seen = 0
    for bucket in buckets {
      seen += bucket.count
      if seen > rank { return bucket.value }
    }
    return buckets.last?.value ?? 0
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
