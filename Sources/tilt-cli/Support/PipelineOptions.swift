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
      option: any OptionKey, needs: any OptionKey, values: Set<String>,
      current: @Sendable (PipelineOptions) -> String
    )] = [
      (Keys.tau, Keys.filter, ["lowpass"], { $0.filter.rawValue }),
      (Keys.minCutoff, Keys.filter, ["oneeuro"], { $0.filter.rawValue }),
      (Keys.beta, Keys.filter, ["oneeuro"], { $0.filter.rawValue }),
      (Keys.fusionTau, Keys.fusion, ["auto", "gyro"], { $0.fusion.rawValue }),
      (Keys.flipStyle, Keys.flipOn, ["button", "turnover"], { $0.flipOn.rawValue }),
    ]

  /// The options as parsed; their values were validated by the declarations.
  init(_ a: CommandLineArguments) throws(UsageError) {
    format = try a[Keys.format]
    output = try a[Keys.output]
    everySample = a[Keys.everySample]
    reduceMotion = a[Keys.reduceMotion]
    rate = try a[Keys.rate] ?? rate
    filter = try a[Keys.filter] ?? filter
    tau = try a[Keys.tau] ?? tau
    minCutoff = try a[Keys.minCutoff] ?? minCutoff
    beta = try a[Keys.beta] ?? beta
    fusion = try a[Keys.fusion] ?? fusion
    fusionTau = try a[Keys.fusionTau]
    reference = try a[Keys.reference] ?? reference
    gain = try a[Keys.gain] ?? gain
    maxTilt = try a[Keys.maxTilt] ?? maxTilt
    perspective = try a[Keys.perspective] ?? perspective
    mountMatrix = try a[Keys.mountMatrix]
    flipOn = try a[Keys.flipOn] ?? flipOn
    flipStyle = try a[Keys.flipStyle] ?? flipStyle
    idleStop = try a[Keys.idleStop]
    stickRange = try a[Keys.stickRange] ?? stickRange
    serve = try a[Keys.serve]
    if let size = try a[Keys.cardSize] {
      (cardWidth, cardHeight) = size
    }
    if let token = try a[Keys.serveToken] {
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
    for rule in Self.applicability where a.isGiven(rule.option) {
      let value = rule.current(self)
      guard !rule.values.contains(value) else { continue }
      let option = rule.option.declaration.name
      let needs = rule.needs.declaration.name
      let given = a.isGiven(rule.needs) ? "" : " (the default)"
      let wanted = rule.values.sorted().map { "--\(needs) \($0)" }.joined(separator: " or ")
      throw UsageError(
        "'--\(option)' applies only with \(wanted), not with --\(needs) \(value)\(given)")
    }
    if format == .html, output == nil, StandardOutput.isTerminal {
      throw UsageError(
        "'--format html' writes a whole page; to open it in a browser, write it to a file with -o FILE.html"
      )
    }
  }
}
