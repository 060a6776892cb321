import Evdev
import SensorData
import Foundation
import JSON

extension ClockRateCheck {
  /// The `timestampRate` object of `info --json`.
  public var json: JSONValue {
    .object([
      ("eventPerMsc", JSONValue(rate)),
      ("uncertainty", JSONValue(rateError)),
      ("windowSeconds", .number(seconds)),
      ("frames", .number(Double(count))),
      ("eventClockRateWins", .bool(eventClockWins)),
      ("appliedRate", .number(appliedRate)),
    ])
  }

  /// One line: how the clocks compare and which rate times the samples.
  public var text: String {
    guard let rate else { return "too few MSC_TIMESTAMP frames to compare with the event clock" }
    let difference = (1 - 1 / rate) * 100
    let percent = abs(difference) < 0.005 ? 0 : difference
    let spread = rateError.map { String(format: " ± %.2f %%", $0 * 100) } ?? ""
    let over = String(format: "over %.1f s", seconds)
    if eventClockWins {
      let how = percent > 0 ? "slow" : "fast"
      return String(format: "MSC_TIMESTAMP runs %.2f %% %@", abs(percent), how) + spread
        + " against the event clock \(over), more than their jitter explains: the event clock's "
        + String(format: "rate wins (each MSC_TIMESTAMP step × %.4f)", appliedRate)
    }
    return String(
      format: "MSC_TIMESTAMP agrees with the event clock (%+.2f %%", percent == 0 ? 0 : -percent)
      + spread
      + ") \(over): timed by MSC_TIMESTAMP"
  }
}
