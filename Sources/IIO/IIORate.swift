/// How fast an IIO buffer delivered its scans, from their `in_timestamp`s
/// (`info --measure`): the effective rate and the intervals' spread.
public struct IIORate: Hashable, Sendable {
  /// Scans measured.
  public var scanCount: Int
  /// Intervals per second of measured intervals; `nil` under two scans.
  public var rateHz: Double?
  public var medianIntervalMs: Double?
  /// Jitter: the intervals' standard deviation.
  public var intervalStdDevMs: Double?
  /// The 99th percentile of the interval (nearest rank).
  public var intervalP99Ms: Double?
  /// Intervals longer than 1.5 × the median: scans the sensor skipped or the buffer lost.
  public var gapCount: Int
  /// Times the timestamp went back (not measured across).
  public var timestampResets: Int

  /// The rate of scans timed `nanoseconds`, in the order read.
  public init(timestampsNanoseconds nanoseconds: [Int64]) {
    scanCount = nanoseconds.count
    var intervals: [Double] = []
    var resets = 0
    for (previous, next) in zip(nanoseconds, nanoseconds.dropFirst()) {
      if next < previous { resets += 1 } else { intervals.append(Double(next - previous) / 1e6) }
    }
    timestampResets = resets
    gapCount = 0
    guard !intervals.isEmpty else { return }
    let sorted = intervals.sorted()
    let total = intervals.reduce(0, +)
    let mean = total / Double(intervals.count)
    let median = (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
    rateHz = total > 0 ? Double(intervals.count) / (total / 1000) : nil
    medianIntervalMs = median
    intervalStdDevMs =
      (intervals.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(intervals.count))
      .squareRoot()
    intervalP99Ms = sorted[max(0, Int((0.99 * Double(sorted.count)).rounded(.up)) - 1)]
    gapCount = median > 0 ? intervals.filter { $0 > 1.5 * median }.count : 0
  }
}
