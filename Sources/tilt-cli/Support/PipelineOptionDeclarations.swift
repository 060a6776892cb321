import Attitude
import CardServer
import CommandLineOptions
import SensorData
import TiltCard

/// The options that `live` and `replay` share (contract §3.2), declared once: the
/// parser, the help and the completions of every command that takes them.
extension PipelineOptions {
  /// The attitude library's default One Euro filter, which the options start from.
  static let oneEuro: (minCutoff: Double, beta: Double, derivativeCutoff: Double) = {
    guard case .oneEuro(let m, let b, let d) = MotionConfiguration.defaultFilter else {
      return (1, 5, 1)
    }
    return (m, b, d)
  }()

  /// The card library's defaults, which the options start from.
  static let card = CardConfiguration()

  /// The values `--rate` takes, display frames per second.
  static let rateRange = CardConfiguration.displayRateRangeHz
  /// The values `--stick-range` takes, degrees.
  static let stickRangeRange = SampleDecoder.stickRangeDegreesRange

  /// Every shared option, in the help's order.
  static let declarations: [OptionDeclaration] = [
    .value(
      "format",
      help: "Output: frames as JSON lines, a live terminal view, or one\n"
        + "HTML page (default: tty on a terminal, else jsonl).",
      validation: .choices(Format.spellings)),
    .value(
      "output", short: "o", "FILE", help: "Write the output to FILE instead of standard output."),
    .flag(
      "every-sample", help: "One frame per input sample instead of one per display frame."),
    .value(
      "rate", "HZ",
      help:
        "Display frames per second, \(rateRange.lowerBound.compact) to \(rateRange.upperBound.compact) (default \(CardConfiguration.defaultDisplayRateHz.compact)).",
      validation: .number(rateRange)),
    .value(
      "filter",
      help: "Smoothing of the attitude (default oneeuro: steady at\nrest, quick in turns).",
      validation: .choices(Filter.spellings)),
    .value(
      "tau", "S",
      help:
        "Low-pass time constant in seconds (default \(SmoothingFilter.classicLowPassTau.compact), the\n"
        + "classic tilt card's x += (new - x)·0.15 at 60 Hz).",
      validation: .number(0.000_001...100)),
    .value(
      "min-cutoff", "HZ",
      help: "One Euro minimum cutoff frequency (default \(oneEuro.minCutoff.compact)).",
      validation: .number(0.000_001...1000)),
    .value(
      "beta", "B",
      help: "One Euro cutoff gain in Hz per rad/s of turn (default \(oneEuro.beta.compact)).",
      validation: .number(0...1000)),
    .value(
      "fusion",
      help: "Accelerometer only, or gyroscope fusion (auto: fusion when\n"
        + "the source has a gyroscope).",
      validation: .choices(Fusion.spellings)),
    .value(
      "fusion-tau", "S",
      help: "Fix how slowly the fusion corrects the gyroscope toward\n"
        + "the accelerometer, seconds (default: \(FusionParameters().accelerometerTimeConstant.compact) at the start,\n"
        + "then \(FusionParameters().minimumAccelerometerTimeConstant.compact) to \(FusionParameters().maximumAccelerometerTimeConstant.compact) with the motion: shorter in fast\n"
        + "turns, longer while the card is pushed).",
      validation: .number(0.01...1000)),
    .value(
      "reference", help: "Attitude relative to the start (default), or absolute.",
      validation: .choices(Reference.spellings)),
    .value(
      "gain", "DEG_PER_RAD",
      help: "Card rotation per radian of tilt (default \(card.gain.compact)).",
      validation: .number(CardConfiguration.gainRange)),
    .value(
      "max-tilt", "DEG",
      help:
        "Largest card rotation about each axis, \(CardConfiguration.maxTiltRange.lowerBound.compact) to \(CardConfiguration.maxTiltRange.upperBound.compact) degrees\n"
        + "(default \(card.maxTilt.compact)).",
      validation: .number(CardConfiguration.maxTiltRange)),
    .value(
      "perspective", "P",
      help:
        "Perspective strength, \(CardConfiguration.perspectiveRange.lowerBound.compact) to \(CardConfiguration.perspectiveRange.upperBound.compact) (default \(card.perspective.compact)).",
      validation: .number(CardConfiguration.perspectiveRange)),
    .value(
      "mount-matrix", "\"a,b,c; d,e,f; g,h,i\"",
      help: "Device-to-card axes, in udev's ACCEL_MOUNT_MATRIX syntax."),
    .value(
      "flip-on",
      help: "What flips the card (default button: the device's\n"
        + "primary button, BTN_SOUTH or BTN_TRIGGER where it has\n"
        + "one; 'tilt-cli info' names it). The space key always does.",
      validation: .choices(FlipOn.spellings)),
    .value(
      "flip-style", help: "The flip animation (default spring).",
      validation: .choices(FlipStyle.spellings)),
    .flag(
      "reduce-motion", help: "No tilt, no flip animation; motion-only devices stay closed."),
    .value(
      "idle-stop", "S",
      help: "Stop motion updates after S seconds at rest; a button or\nkey starts them again.",
      validation: .number(CardConfiguration.idleStopRange)),
    .value(
      "card-size", "WxH",
      help: "Card size in points (default \(card.width.compact)x\(card.height.compact)).",
      validation: .custom { text throws(UsageError) in _ = try cardSize(text) }),
    .value(
      "stick-range", "DEG",
      help:
        "Tilt of a joystick at full deflection, \(stickRangeRange.lowerBound.compact) to \(stickRangeRange.upperBound.compact) degrees\n"
        + "(default \(SampleDecoder.defaultStickRangeDegrees.compact)).",
      validation: .number(stickRangeRange)),
    .value(
      "serve", "[HOST:]PORT",
      help: "Serve the card live to a browser at http://HOST:PORT/\n"
        + "(HOST default 127.0.0.1; PORT 0 picks a free one); updates\n"
        + "run while a viewer has the page visible. On loopback a\n"
        + "page of another name (DNS rebinding) gets 403; on any\n"
        + "other address every request needs a token, random per\n"
        + "run and printed once in the URL, and stderr warns that\n"
        + "the card is served to the network.",
      validation: .custom { text throws(UsageError) in _ = try serveAddress(text) }),
    .value(
      "serve-token", "TOKEN",
      help:
        "The token instead of a random one (\(Access.minimumTokenLength) to \(Access.maximumTokenLength) of A-Z a-z\n"
        + "0-9 - _ . ~); required on loopback too when given."),
  ]

  /// `--card-size WxH`, both sides in points within the card library's range.
  static func cardSize(_ text: String) throws(UsageError) -> (width: Double, height: Double) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
      CardConfiguration.sizeRange.contains(w), CardConfiguration.sizeRange.contains(h)
    else {
      throw UsageError("'--card-size' needs WIDTHxHEIGHT in points, like 340x220, not '\(text)'")
    }
    return (w, h)
  }

  /// `--serve [HOST:]PORT`.
  static func serveAddress(_ text: String) throws(UsageError) -> ServeAddress {
    do {
      return try ServeAddress(parsing: text)
    } catch {
      throw UsageError("'--serve' needs [HOST:]PORT, like 8080 or 127.0.0.1:0, not '\(text)'")
    }
  }
}
