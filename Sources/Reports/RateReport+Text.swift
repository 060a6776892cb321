import Evdev
import SensorData
import Foundation
import JSON

extension RateReport {
  /// The `rate` object of `info --json`.
  public var json: JSONValue {
    .object([
      ("clock", JSONValue(clock.map { "\($0)" })),
      ("samples", .number(Double(sampleCount))),
      ("rateHz", JSONValue(rateHz)),
      ("medianIntervalMs", JSONValue(medianIntervalMs)),
      ("intervalStdDevMs", JSONValue(intervalStdDevMs)),
      ("intervalP99Ms", JSONValue(intervalP99Ms)),
      ("droppedFrames", clock == .msc ? .number(Double(droppedFrames)) : .null),
      ("gaps", .number(Double(gapCount))),
      ("synDropped", .number(Double(synDroppedCount))),
      ("timestampWraps", .number(Double(timestampWraps))),
      ("timestampResets", .number(Double(timestampResets))),
    ])
  }

  /// What `info` says of the rate, `seconds` the time measured (a device).
  public func lines(measuredFor seconds: Double?) -> [String] {
    let over = seconds.map { " (measured over \($0.compactText) s)" } ?? ""
    guard let rateHz else { return ["rate: no timed samples\(over)"] }
    func ms(_ v: Double?) -> String { v.map { String(format: "%.3f ms", $0) } ?? "-" }
    // A device timed by event time reports only changes, so its gaps are not losses.
    let dropped =
      clock == .msc
      ? "dropped: \(droppedFrames) frames (\(synDroppedCount) SYN_DROPPED, \(missedSamples) missing from gaps)"
      : "dropped: \(synDroppedCount) SYN_DROPPED; \(gapCount) gaps over 1.5× the median interval (event-timed devices report only changes)"
    return [
      String(format: "rate: %.1f Hz", rateHz) + over,
      "interval: median \(ms(medianIntervalMs)), std dev \(ms(intervalStdDevMs)), p99 \(ms(intervalP99Ms))",
      dropped,
      "timestamp wraps: \(timestampWraps), resets: \(timestampResets)",
    ]
  }
}
