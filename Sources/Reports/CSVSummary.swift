import Evdev
import SensorData
import Foundation
import JSON

/// What `info` says of a CSV log: how long, how fast, which units, which
/// columns beyond the motion.
public struct CSVSummary {
  /// The accelerometer's unit as the header names it (`g`, `m_s2`).
  public var accelerometerUnit: String
  /// The gyroscope's unit; nil without gyroscope columns.
  public var gyroscopeUnit: String?
  /// The `opt_*` and `movement` columns, in header order.
  public var groundTruthColumns: [String]
  /// Whether `opt_qw … opt_qz` are all there (what `tune` scores against).
  public var hasGroundTruth: Bool
  /// Rows read.
  public var samples = 0
  /// Rows with a ground-truth quaternion that is not NaN.
  public var groundTruthSamples = 0
  /// Seconds from the first row to the last.
  public var duration = 0.0
  /// The median of the rows' time steps, seconds; nil with fewer than two rows.
  public var medianInterval: Double?

  /// The rows' rate by their median step.
  public var rateHz: Double? {
    guard let medianInterval, medianInterval > 0 else { return nil }
    return 1 / medianInterval
  }

  /// The CSV log's keys of `info --json`.
  public var jsonMembers: [(String, JSONValue)] {
    [
      ("durationSeconds", .number(duration)),
      ("rateHz", JSONValue(rateHz)),
      (
        "units",
        .object([
          ("time", .string("s")), ("accelerometer", .string(accelerometerUnit)),
          ("gyroscope", JSONValue(gyroscopeUnit)),
        ])
      ),
      ("gyroscope", .bool(gyroscopeUnit != nil)),
      ("groundTruthColumns", .array(groundTruthColumns.map { .string($0) })),
      ("groundTruth", .bool(hasGroundTruth)),
      ("groundTruthSamples", .number(Double(groundTruthSamples))),
    ]
  }

  /// What `info` says of the log.
  public var lines: [String] {
    let rate = rateHz.map {
      String(format: "%.1f Hz (median step %.3f ms)", $0, medianInterval! * 1000)
    }
    let truth =
      groundTruthColumns.isEmpty
      ? "none"
      : groundTruthColumns.joined(separator: ", ")
        + (hasGroundTruth ? " (\(groundTruthSamples) rows with an orientation)" : "")
    return [
      String(format: "duration: %.3f s", duration),
      "rate: " + (rate ?? "fewer than two timed rows"),
      "units: t_s in s, accelerometer in \(accelerometerUnit), gyroscope "
        + (gyroscopeUnit.map { "in \($0)" } ?? "none"),
      "gyroscope: \(gyroscopeUnit == nil ? "no" : "yes")",
      "ground truth: \(truth)",
    ]
  }
}
