import Attitude

/// One filter setting that `tune` tries, with the options that select it.
public struct FilterSetting: Hashable, Sendable {
  public var filter: SmoothingFilter
  /// The fusion's accelerometer time constant, seconds; `nil` for the default.
  public var fusionTau: Double?

  public init(filter: SmoothingFilter, fusionTau: Double? = nil) {
    self.filter = filter
    self.fusionTau = fusionTau
  }

  /// Options that `replay` and `live` accept.
  public var arguments: [String] {
    let fusion = fusionTau.map { ["--fusion-tau", Self.format($0)] } ?? []
    switch filter {
    case .none: return ["--filter", "none"] + fusion
    case .lowpass(let tau): return ["--filter", "lowpass", "--tau", Self.format(tau)] + fusion
    case .oneEuro(let minCutoff, let beta, _):
      return [
        "--filter", "oneeuro", "--min-cutoff", Self.format(minCutoff), "--beta", Self.format(beta),
      ] + fusion
    }
  }

  /// The motion configuration this setting asks for, on top of `base`.
  public func configuration(_ base: MotionConfiguration) -> MotionConfiguration {
    var c = base
    c.filter = filter
    if let fusionTau { c.fusionParameters.fixAccelerometerTimeConstant(fusionTau) }
    return c
  }

  static func format(_ x: Double) -> String {
    var text = String(format: "%.4g", x)
    if text.contains("e") { text = String(format: "%.6f", x) }
    return text
  }
}

/// How one setting did: wobble at rest, delay in motion, overshoot on
/// stopping; `nil` where the recording cannot show it.
public struct SettingScore: Sendable {
  public var setting: FilterSetting
  /// RMS rotation angle at rest from the rest's mean rotation (drifting at
  /// its steady rate), degrees.
  public var jitter: Double?
  /// The same wobble as the card shows it: RMS distance of its pose, card rotation degrees.
  public var cardJitter: Double?
  /// The steady creep at rest that `jitter` leaves out, degrees per second.
  public var drift: Double?
  /// Delay of the output behind the reference in motion, milliseconds.
  public var lag: Double?
  /// Whether the lag is the end of the search (`FilterScorer.maxLag`): it is at least that.
  public var lagAtLimit = false
  /// Largest swing past the resting attitude after a motion stops, degrees, and card degrees.
  public var overshoot: Double?
  public var cardOvershoot: Double?
  /// RMS inclination error against ground truth, degrees; `nil` without it.
  public var error: Double?

  public init(setting: FilterSetting) { self.setting = setting }

  /// Jitter of `jitterScale` degrees costs as much as lag of `lagScale` ms: a
  /// tenth of a degree of wobble (0.035° of card rotation at the default
  /// gain) against two display frames of delay at 60 Hz.
  public static let jitterScale = 0.1
  public static let lagScale = 30.0
  public static let scoreRule =
    "score = jitter/\(SettingScore.jitterScale.compact)° + lag/\(SettingScore.lagScale.compact) ms, lower is better"

  /// The ranking score, lower is better; `nil` unless both jitter and lag are measured.
  public var score: Double? {
    guard let jitter, let lag else { return nil }
    return jitter / SettingScore.jitterScale + lag / SettingScore.lagScale
  }
}
