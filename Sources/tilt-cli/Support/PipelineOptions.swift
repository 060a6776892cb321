import Attitude
import CardServer
import CommandLineOptions
import SensorData
import Tilt
import TiltCard

/// The options that `live` and `replay` share (contract §3.2), checked and typed.
struct PipelineOptions {
  typealias Format = FrameFormat
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
  /// `--serve [HOST:]PORT`: the live page (contract §6.1).
  var serve: ServeAddress?
  /// `--serve-token TOKEN`: the token every request must carry (contract §6.4).
  var serveToken: String?

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

  /// The options as parsed; their values were validated by the declarations.
  init(_ a: CommandLineArguments) throws(UsageError) {
    format = try a.choice("format", as: Format.self)
    output = a.string("output")
    everySample = a.has("every-sample")
    reduceMotion = a.has("reduce-motion")
    rate = a.number("rate") ?? rate
    filter = try a.choice("filter", as: Filter.self) ?? filter
    tau = a.number("tau") ?? tau
    minCutoff = a.number("min-cutoff") ?? minCutoff
    beta = a.number("beta") ?? beta
    fusion = try a.choice("fusion", as: Fusion.self) ?? fusion
    fusionTau = a.number("fusion-tau")
    reference = try a.choice("reference", as: Reference.self) ?? reference
    gain = a.number("gain") ?? gain
    maxTilt = a.number("max-tilt") ?? maxTilt
    perspective = a.number("perspective") ?? perspective
    mountMatrix = a.string("mount-matrix")
    flipOn = try a.choice("flip-on", as: FlipOn.self) ?? flipOn
    flipStyle = try a.choice("flip-style", as: FlipStyle.self) ?? flipStyle
    idleStop = a.number("idle-stop")
    stickRange = a.number("stick-range") ?? stickRange
    serve = try a.string("serve").map(Self.serveAddress)
    if let size = a.string("card-size") {
      (cardWidth, cardHeight) = try Self.cardSize(size)
    }
    if let token = a.string("serve-token") {
      guard serve != nil else {
        throw UsageError("'--serve-token' applies only with --serve [HOST:]PORT")
      }
      guard Access.isValidToken(token) else {
        throw UsageError(
          "'--serve-token' needs \(Access.minimumTokenLength) to \(Access.maximumTokenLength) characters of A-Z a-z 0-9 - _ . ~ "
            + "(\(token.utf8.count) given); leave it out for a random one")
      }
      serveToken = token
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
