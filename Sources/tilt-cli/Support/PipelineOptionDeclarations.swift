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
  static let declarations: [OptionDeclaration] =
    ([
      Keys.format, Keys.output, Keys.everySample, Keys.rate, Keys.filter, Keys.tau,
      Keys.minCutoff, Keys.beta, Keys.fusion, Keys.fusionTau, Keys.reference, Keys.gain,
      Keys.maxTilt, Keys.perspective, Keys.mountMatrix, Keys.flipOn, Keys.flipStyle,
      Keys.reduceMotion, Keys.idleStop, Keys.cardSize, Keys.stickRange, Keys.serve, Keys.serveToken,
    ] as [any OptionKey]).map(\.declaration)

  /// The shared options' keys: each declared here once, and read through them.
  enum Keys {
    static let format = Option<Format>.choice(
      "format",
      help: "Output: frames as JSON lines, a live terminal view, or one\n"
        + "HTML page (default: tty on a terminal, else jsonl).")
    static let output = Option<String>.value(
      "output", short: "o", "FILE", help: "Write the output to FILE instead of standard output.")
    static let everySample = Flag(
      "every-sample", help: "One frame per input sample instead of one per display frame.")
    static let rate = Option<Double>.number(
      "rate", "HZ",
      help:
        "Display frames per second, \(rateRange.lowerBound.compact) to \(rateRange.upperBound.compact) (default \(CardConfiguration.defaultDisplayRateHz.compact)).",
      in: rateRange)
    static let filter = Option<Filter>.choice(
      "filter",
      help: "Smoothing of the attitude (default oneeuro: steady at\nrest, quick in turns).")
    static let tau = Option<Double>.number(
      "tau", "S",
      help:
        "Low-pass time constant in seconds (default \(SmoothingFilter.classicLowPassTau.compact), the\n"
        + "classic tilt card's x += (new - x)·0.15 at 60 Hz).", in: 0.000_001...100)
    static let minCutoff = Option<Double>.number(
      "min-cutoff", "HZ",
      help: "One Euro minimum cutoff frequency (default \(oneEuro.minCutoff.compact)).",
      in: 0.000_001...1000)
    static let beta = Option<Double>.number(
      "beta", "B",
      help: "One Euro cutoff gain in Hz per rad/s of turn (default \(oneEuro.beta.compact)).",
      in: 0...1000)
    static let fusion = Option<Fusion>.choice(
      "fusion",
      help: "Accelerometer only, or gyroscope fusion (auto: fusion when\n"
        + "the source has a gyroscope).")
    static let fusionTau = Option<Double>.number(
      "fusion-tau", "S",
      help: "Fix how slowly the fusion corrects the gyroscope toward\n"
        + "the accelerometer, seconds (default: \(FusionParameters().accelerometerTimeConstant.compact) at the start,\n"
        + "then \(FusionParameters().minimumAccelerometerTimeConstant.compact) to \(FusionParameters().maximumAccelerometerTimeConstant.compact) with the motion: shorter in fast\n"
        + "turns, longer while the card is pushed).", in: 0.01...1000)
    static let reference = Option<Reference>.choice(
      "reference", help: "Attitude relative to the start (default), or absolute.")
    static let gain = Option<Double>.number(
      "gain", "DEG_PER_RAD",
      help: "Card rotation per radian of tilt (default \(card.gain.compact)).",
      in: CardConfiguration.gainRange)
    static let maxTilt = Option<Double>.number(
      "max-tilt", "DEG",
      help:
        "Largest card rotation about each axis, \(CardConfiguration.maxTiltRange.lowerBound.compact) to \(CardConfiguration.maxTiltRange.upperBound.compact) degrees\n"
        + "(default \(card.maxTilt.compact)).", in: CardConfiguration.maxTiltRange)
    static let perspective = Option<Double>.number(
      "perspective", "P",
      help:
        "Perspective strength, \(CardConfiguration.perspectiveRange.lowerBound.compact) to \(CardConfiguration.perspectiveRange.upperBound.compact) (default \(card.perspective.compact)).",
      in: CardConfiguration.perspectiveRange)
    static let mountMatrix = Option<String>.value(
      "mount-matrix", "\"a,b,c; d,e,f; g,h,i\"",
      help: "Device-to-card axes, in udev's ACCEL_MOUNT_MATRIX syntax.")
    static let flipOn = Option<FlipOn>.choice(
      "flip-on",
      help: "What flips the card (default button: the device's\n"
        + "primary button, BTN_SOUTH or BTN_TRIGGER where it has\n"
        + "one; 'tilt-cli info' names it). The space key always does.")
    static let flipStyle = Option<FlipStyle>.choice(
      "flip-style", help: "The flip animation (default spring).")
    static let reduceMotion = Flag(
      "reduce-motion", help: "No tilt, no flip animation; motion-only devices stay closed.")
    static let idleStop = Option<Double>.number(
      "idle-stop", "S",
      help: "Stop motion updates after S seconds at rest; a button or\nkey starts them again.",
      in: CardConfiguration.idleStopRange)
    static let cardSize = Option<(width: Double, height: Double)>.parsed(
      "card-size", "WxH",
      help: "Card size in points (default \(card.width.compact)x\(card.height.compact)).",
      parse: { text throws(UsageError) in try PipelineOptions.cardSize(text) })
    static let stickRange = Option<Double>.number(
      "stick-range", "DEG",
      help:
        "Tilt of a joystick at full deflection, \(stickRangeRange.lowerBound.compact) to \(stickRangeRange.upperBound.compact) degrees\n"
        + "(default \(SampleDecoder.defaultStickRangeDegrees.compact)).", in: stickRangeRange)
    static let serve = Option<ServeAddress>.parsed(
      "serve", "[HOST:]PORT",
      help: "Serve the card live to a browser at http://HOST:PORT/\n"
        + "(HOST default 127.0.0.1; PORT 0 picks a free one); updates\n"
        + "run while a viewer has the page visible. On loopback a\n"
        + "page of another name (DNS rebinding) gets 403; on any\n"
        + "other address every request needs a token, random per\n"
        + "run and printed once in the URL, and stderr warns that\n"
        + "the card is served to the network.",
      parse: { text throws(UsageError) in try PipelineOptions.serveAddress(text) })
    static let serveToken = Option<String>.value(
      "serve-token", "TOKEN",
      help:
        "The token instead of a random one (\(Access.minimumTokenLength) to \(Access.maximumTokenLength) of A-Z a-z\n"
        + "0-9 - _ . ~); required on loopback too when given.")
  }

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
