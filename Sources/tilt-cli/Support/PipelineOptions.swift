import Attitude
import CardServer
import EvdevCore
import TiltCard

/// The options that `live` and `replay` share (SPEC §3), checked and typed.
struct PipelineOptions {
  enum Format: String, CaseIterable { case jsonl, tty, html }
  enum Filter: String, CaseIterable { case none, lowpass, oneeuro }
  // The library's own enums: one spelling of each choice, no mirror to bridge.
  typealias Fusion = FusionMode
  typealias Reference = ReferenceMode
  typealias FlipOn = FlipTrigger
  typealias FlipStyle = CardConfiguration.FlipStyle

  /// `nil`: `tty` on a terminal, else `jsonl`.
  var format: Format?
  var output: String?
  var everySample = false
  var rate = CardConfiguration.defaultDisplayRateHz
  var filter = Filter.oneeuro
  var tau = SmoothingFilter.classicLowPassTau
  var minCutoff = Self.oneEuro.minCutoff
  var beta = Self.oneEuro.beta
  var fusion = Fusion.auto
  /// The fusion's accelerometer time constant, seconds; `nil` for the library's.
  var fusionTau: Double?
  var reference = Reference.start
  var gain = Self.card.gain
  var maxTilt = Self.card.maxTilt
  var perspective = Self.card.perspective
  var mountMatrix: String?
  var flipOn = FlipOn.button
  var flipStyle = FlipStyle.spring
  var reduceMotion = false
  var idleStop: Double?
  var cardWidth = Self.card.width
  var cardHeight = Self.card.height
  var stickRange = SampleDecoder.defaultStickRangeDegrees
  /// `--serve [HOST:]PORT`: the live page (SPEC §6).
  var serve: ServeAddress?
  /// `--serve-token TOKEN`: the token every request must carry (SPEC §6).
  var serveToken: String?

  /// The attitude library's default One Euro filter, which the options start from.
  static let oneEuro: (minCutoff: Double, beta: Double, derivativeCutoff: Double) = {
    guard case .oneEuro(let m, let b, let d) = MotionConfiguration.defaultFilter else {
      return (1, 5, 1)
    }
    return (m, b, d)
  }()

  /// The card library's defaults, which the options start from.
  private static let card = CardConfiguration()

  static let valueOptions: Set<String> = [
    "format", "output", "rate", "filter", "tau", "min-cutoff", "beta", "fusion", "reference",
    "fusion-tau", "gain", "max-tilt", "perspective", "mount-matrix", "flip-on", "flip-style",
    "idle-stop",
    "card-size", "stick-range", "serve", "serve-token",
  ]
  static let flagOptions: Set<String> = ["every-sample", "reduce-motion"]

  /// Options that apply only with some values of another option, and which:
  /// `--beta` tunes the One Euro filter, so it needs `--filter oneeuro`.
  static let applicability:
    [(
      option: String, needs: String, values: Set<String>,
      current: @Sendable (PipelineOptions) -> String
    )] = [
      ("tau", "filter", ["lowpass"], { $0.filter.rawValue }),
      ("min-cutoff", "filter", ["oneeuro"], { $0.filter.rawValue }),
      ("beta", "filter", ["oneeuro"], { $0.filter.rawValue }),
      ("fusion-tau", "fusion", ["auto", "gyro"], { $0.fusion.rawValue }),
      ("flip-style", "flip-on", ["button", "turnover"], { $0.flipOn.rawValue }),
    ]

  /// The values `--rate` takes, display frames per second.
  static let rateRange = CardConfiguration.displayRateRangeHz
  /// The values `--stick-range` takes, degrees.
  static let stickRangeRange = SampleDecoder.stickRangeDegreesRange

  static let help = """
      --format jsonl|tty|html Output: frames as JSON lines, a live terminal view, or one
                              HTML page (default: tty on a terminal, else jsonl).
      -o, --output FILE       Write the output to FILE instead of standard output.
      --every-sample          One frame per input sample instead of one per display frame.
      --rate HZ               Display frames per second, \(rateRange.lowerBound.compact) to \(rateRange.upperBound.compact) (default \(CardConfiguration.defaultDisplayRateHz.compact)).
      --filter none|lowpass|oneeuro
                              Smoothing of the attitude (default oneeuro: steady at
                              rest, quick in turns).
      --tau S                 Low-pass time constant in seconds (default \(SmoothingFilter.classicLowPassTau.compact), the
                              classic tilt card's x += (new - x)·0.15 at 60 Hz).
      --min-cutoff HZ         One Euro minimum cutoff frequency (default \(oneEuro.minCutoff.compact)).
      --beta B                One Euro cutoff gain in Hz per rad/s of turn (default \(oneEuro.beta.compact)).
      --fusion auto|accel|gyro
                              Accelerometer only, or gyroscope fusion (auto: fusion when
                              the source has a gyroscope).
      --fusion-tau S          Fix how slowly the fusion corrects the gyroscope toward
                              the accelerometer, seconds (default: \(FusionParameters().accelerometerTimeConstant.compact) at the start,
                              then \(FusionParameters().minimumAccelerometerTimeConstant.compact) to \(FusionParameters().maximumAccelerometerTimeConstant.compact) with the motion: shorter in fast
                              turns, longer while the card is pushed).
      --reference start|none  Attitude relative to the start (default), or absolute.
      --gain DEG_PER_RAD      Card rotation per radian of tilt (default \(card.gain.compact)).
      --max-tilt DEG          Largest card rotation about each axis, \(CardConfiguration.maxTiltRange.lowerBound.compact) to \(CardConfiguration.maxTiltRange.upperBound.compact) degrees
                              (default \(card.maxTilt.compact)).
      --perspective P         Perspective strength, \(CardConfiguration.perspectiveRange.lowerBound.compact) to \(CardConfiguration.perspectiveRange.upperBound.compact) (default \(card.perspective.compact)).
      --mount-matrix "a,b,c; d,e,f; g,h,i"
                              Device-to-card axes, in udev's ACCEL_MOUNT_MATRIX syntax.
      --flip-on button|turnover|none
                              What flips the card (default button: the device's
                              primary button, BTN_SOUTH or BTN_TRIGGER where it has
                              one; 'tilt-cli info' names it). The space key always does.
      --flip-style spring|two-phase
                              The flip animation (default spring).
      --reduce-motion         No tilt, no flip animation; motion-only devices stay closed.
      --idle-stop S           Stop motion updates after S seconds at rest; a button or
                              key starts them again.
      --card-size WxH         Card size in points (default \(card.width.compact)x\(card.height.compact)).
      --stick-range DEG       Tilt of a joystick at full deflection, \(stickRangeRange.lowerBound.compact) to \(stickRangeRange.upperBound.compact) degrees
                              (default \(SampleDecoder.defaultStickRangeDegrees.compact)).
      --serve [HOST:]PORT     Serve the card live to a browser at http://HOST:PORT/
                              (HOST default 127.0.0.1; PORT 0 picks a free one); updates
                              run while a viewer has the page visible. On loopback a
                              page of another name (DNS rebinding) gets 403; on any
                              other address every request needs a token, random per
                              run and printed once in the URL, and stderr warns that
                              the card is served to the network.
      --serve-token TOKEN     The token instead of a random one (\(Access.minimumTokenLength) to 256 of A-Z a-z
                              0-9 - _ . ~); required on loopback too when given.
    """

  init(_ a: CommandLineArguments) throws(UsageError) {
    format = try a.choice("format", as: Format.self)
    output = a.string("output")
    everySample = a.has("every-sample")
    reduceMotion = a.has("reduce-motion")
    rate = try a.number("rate", in: Self.rateRange) ?? rate
    filter = try a.choice("filter", as: Filter.self) ?? filter
    tau = try a.number("tau", in: 0.000_001...100) ?? tau
    minCutoff = try a.number("min-cutoff", in: 0.000_001...1000) ?? minCutoff
    beta = try a.number("beta", in: 0...1000) ?? beta
    fusion = try a.choice("fusion", as: Fusion.self) ?? fusion
    fusionTau = try a.number("fusion-tau", in: 0.01...1000)
    reference = try a.choice("reference", as: Reference.self) ?? reference
    gain = try a.number("gain", in: CardConfiguration.gainRange) ?? gain
    maxTilt = try a.number("max-tilt", in: CardConfiguration.maxTiltRange) ?? maxTilt
    perspective = try a.number("perspective", in: CardConfiguration.perspectiveRange) ?? perspective
    mountMatrix = a.string("mount-matrix")
    flipOn = try a.choice("flip-on", as: FlipOn.self) ?? flipOn
    flipStyle = try a.choice("flip-style", as: FlipStyle.self) ?? flipStyle
    idleStop = try a.number("idle-stop", in: CardConfiguration.idleStopRange)
    stickRange = try a.number("stick-range", in: Self.stickRangeRange) ?? stickRange
    if let text = a.string("serve") {
      do {
        serve = try ServeAddress(parsing: text)
      } catch {
        throw UsageError("'--serve' needs [HOST:]PORT, like 8080 or 127.0.0.1:0, not '\(text)'")
      }
    }
    if let token = a.string("serve-token") {
      guard serve != nil else {
        throw UsageError("'--serve-token' applies only with --serve [HOST:]PORT")
      }
      guard Access.isValidToken(token) else {
        throw UsageError(
          "'--serve-token' needs \(Access.minimumTokenLength) to 256 characters of A-Z a-z 0-9 - _ . ~ "
            + "(\(token.utf8.count) given); leave it out for a random one")
      }
      serveToken = token
    }
    if let size = a.string("card-size") {
      let parts = size.lowercased().split(separator: "x", omittingEmptySubsequences: false)
      guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
        CardConfiguration.sizeRange.contains(w), CardConfiguration.sizeRange.contains(h)
      else {
        throw UsageError("'--card-size' needs WIDTHxHEIGHT in points, like 340x220, not '\(size)'")
      }
      (cardWidth, cardHeight) = (w, h)
    }
    for rule in Self.applicability where a.string(rule.option) != nil {
      let value = rule.current(self)
      guard !rule.values.contains(value) else { continue }
      let given = a.string(rule.needs) == nil ? " (the default)" : ""
      let wanted = rule.values.sorted().map { "--\(rule.needs) \($0)" }.joined(separator: " or ")
      throw UsageError(
        "'--\(rule.option)' applies only with \(wanted), not with --\(rule.needs) \(value)\(given)")
    }
    if format == .html, output == nil, StandardOutput.isTerminal {
      throw UsageError(
        "'--format html' writes a whole page; to open it in a browser, write it to a file with -o FILE.html"
      )
    }
  }
}
