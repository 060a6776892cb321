import Attitude

/// One filter setting that `tune` tries, with the options that select it.
struct FilterSetting: Hashable {
  var filter: SmoothingFilter
  /// The fusion's accelerometer time constant, seconds; `nil` for the default.
  var fusionTau: Double?

  /// Options that `replay` and `live` accept.
  var arguments: [String] {
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
  func configuration(_ base: MotionConfiguration) -> MotionConfiguration {
    var c = base
    c.filter = filter
    if let fusionTau { c.fusionParameters.accelerometerTimeConstant = fusionTau }
    return c
  }

  static func format(_ x: Double) -> String {
    var text = String(format: "%.4g", x)
    if text.contains("e") { text = String(format: "%.6f", x) }
    return text
  }
}

/// How one setting did: wobble at rest, delay in motion, overshoot on stopping.
struct SettingScore {
  var setting: FilterSetting
  /// RMS of the output's wobble at rest, degrees of pitch and roll.
  var jitter: Double
  /// Delay of the output behind the reference in motion, milliseconds.
  var lag: Double
  /// Largest swing past the resting value after a motion stops, degrees.
  var overshoot: Double
  /// RMS inclination error against ground truth, degrees; `nil` without it.
  var error: Double?
  /// The ranking cost: lower is better.
  var cost: Double

  /// Jitter of `jitterScale` degrees costs as much as lag of `lagScale` ms,
  /// overshoot of `overshootScale` degrees and, with ground truth, an
  /// inclination error of `errorScale` degrees: a tenth of a degree of wobble
  /// is about what a card at the default gain starts to show.
  static let jitterScale = 0.1
  static let lagScale = 30.0
  static let overshootScale = 0.5
  static let errorScale = 1.0

  static func cost(jitter: Double, lag: Double, overshoot: Double, error: Double?) -> Double {
    jitter / jitterScale + lag / lagScale + overshoot / overshootScale + (error ?? 0) / errorScale
  }
}
