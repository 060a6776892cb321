import Attitude
import Foundation

/// Runs the estimator with each filter setting over a recording and measures it
/// against a reference: ground truth where the file has it, else the unfiltered
/// estimate smoothed forward and backward (zero phase, so it has no lag).
struct FilterScorer {
  let data: TuneData
  let fusion: FusionMode
  let rest: [Bool]
  let restRuns: [Range<Int>]
  /// The reference pitch and roll per sample; `nil` where unknown.
  let reference: [Inclination?]
  /// The median sample interval, seconds.
  let interval: Double
  let referenceName: String

  /// Whether the estimator is the gyroscope fusion, whose time constant is tunable too.
  var usesFusion: Bool { fusion == .gyro || (fusion == .auto && data.hasGyroscope) }

  static let settleTime = 0.3
  static let maxLag = 0.5

  init(data: TuneData, fusion: FusionMode) {
    self.data = data
    self.fusion = fusion
    rest = RestSegments.find(in: data)
    restRuns = RestSegments.runs(rest)
    let dts = zip(data.samples.dropFirst(), data.samples).map { $0.time - $1.time }.sorted()
    interval = max(dts.isEmpty ? 0.01 : dts[dts.count / 2], 1e-4)
    if let truth = data.truthUp {
      reference = truth.map { $0.map(Inclination.init(up:)) }
      referenceName = "ground truth"
    } else {
      let raw = FilterScorer.run(data, fusion: fusion, setting: FilterSetting(filter: .none))
      reference = FilterScorer.zeroPhase(raw, samples: data.samples, tau: 0.02)
      referenceName = "the unfiltered estimate, smoothed forward and backward (τ = 20 ms)"
    }
  }

  /// The absolute inclination the pipeline gives with `filter`, per sample.
  static func run(_ data: TuneData, fusion: FusionMode, setting: FilterSetting) -> [Inclination] {
    var configuration = MotionConfiguration()
    configuration.fusion = fusion
    configuration.reference = .none
    configuration = setting.configuration(configuration)
    let manager = MotionManager(configuration: configuration, hasGyroscope: data.hasGyroscope)
    manager.startDeviceMotionUpdates { _ in }
    var out: [Inclination] = []
    out.reserveCapacity(data.samples.count)
    var last = Inclination(up: Vector3(0, 0, 1))
    for sample in data.samples {
      if let motion = manager.process(sample) { last = Inclination(up: -motion.gravity) }
      out.append(last)
    }
    return out
  }

  func score(_ setting: FilterSetting) -> SettingScore {
    let out = FilterScorer.run(data, fusion: fusion, setting: setting)
    let jitter = jitter(of: out)
    let lag = lag(of: out)
    let overshoot = overshoot(of: out)
    let error = data.truthUp == nil ? nil : error(of: out)
    return SettingScore(
      setting: setting, jitter: jitter, lag: lag, overshoot: overshoot, error: error,
      cost: SettingScore.cost(jitter: jitter, lag: lag, overshoot: overshoot, error: error))
  }

  /// RMS deviation from each rest stretch's mean, after it settles.
  func jitter(of out: [Inclination]) -> Double {
    var sum = 0.0
    var count = 0
    for run in restRuns {
      let start = data.samples[run.lowerBound].time + FilterScorer.settleTime
      let settled = run.filter { data.samples[$0].time >= start }
      guard settled.count > 1 else { continue }
      let meanPitch = settled.map { out[$0].pitch }.reduce(0, +) / Double(settled.count)
      let meanRoll = settled.map { out[$0].roll }.reduce(0, +) / Double(settled.count)
      for i in settled {
        sum +=
          pow2(out[i].pitch - meanPitch) + pow2(wrap(out[i].roll, near: meanRoll) - meanRoll)
        count += 2
      }
    }
    return count == 0 ? 0 : (sum / Double(count)).squareRoot()
  }

  /// The shift of the output behind the reference, over the samples in motion,
  /// that leaves the least squared difference; refined between samples.
  func lag(of out: [Inclination]) -> Double {
    let maxShift = Int(FilterScorer.maxLag / interval)
    var costs: [Double] = []
    for shift in 0...maxShift {
      var sum = 0.0
      var count = 0
      var i = shift
      while i < out.count {
        if !rest[i], let ref = reference[i - shift] {
          sum += pow2(out[i].pitch - ref.pitch) + pow2(wrap(out[i].roll, near: ref.roll) - ref.roll)
          count += 1
        }
        i += 1
      }
      costs.append(count == 0 ? .infinity : sum / Double(count))
    }
    guard let best = costs.indices.min(by: { costs[$0] < costs[$1] }), costs[best].isFinite
    else { return 0 }
    var refined = Double(best)
    if best > 0, best < costs.count - 1 {
      let (a, b, c) = (costs[best - 1], costs[best], costs[best + 1])
      let denominator = a - 2 * b + c
      if denominator > 0 { refined += 0.5 * (a - c) / denominator }
    }
    return max(0, refined) * interval * 1000
  }

  /// After each motion, the largest swing of the output past where it comes
  /// to rest, in the direction it was moving, within a second.
  func overshoot(of out: [Inclination]) -> Double {
    var worst = 0.0
    for run in restRuns where run.lowerBound > 0 {
      let settledFrom = data.samples[run.lowerBound].time + 1
      let settled = run.filter { data.samples[$0].time >= settledFrom }
      guard !settled.isEmpty else { continue }
      let finalPitch = settled.map { out[$0].pitch }.reduce(0, +) / Double(settled.count)
      let finalRoll = settled.map { out[$0].roll }.reduce(0, +) / Double(settled.count)
      let before = out[max(0, run.lowerBound - Int(0.2 / interval))]
      let pitchDirection = finalPitch >= before.pitch ? 1.0 : -1.0
      let rollDirection = finalRoll >= before.roll ? 1.0 : -1.0
      for i in run where data.samples[i].time < settledFrom {
        worst = max(worst, pitchDirection * (out[i].pitch - finalPitch))
        worst = max(worst, rollDirection * (wrap(out[i].roll, near: finalRoll) - finalRoll))
      }
    }
    return worst
  }

  /// RMS angle between the output's and the true vertical, as BROAD scores it.
  func error(of out: [Inclination]) -> Double {
    var sum = 0.0
    var count = 0
    for i in out.indices {
      guard let ref = reference[i] else { continue }
      sum += pow2(out[i].pitch - ref.pitch) + pow2(wrap(out[i].roll, near: ref.roll) - ref.roll)
      count += 1
    }
    return count == 0 ? 0 : (sum / Double(count)).squareRoot()
  }

  /// `x` moved by whole turns to lie within 180° of `near`.
  private func wrap(_ x: Double, near: Double) -> Double {
    var d = x - near
    while d > 180 { d -= 360 }
    while d < -180 { d += 360 }
    return near + d
  }

  /// An exponential low-pass run forward then backward: smooth with no delay.
  static func zeroPhase(_ raw: [Inclination], samples: [MotionSample], tau: Double)
    -> [Inclination?]
  {
    var pitch = raw.map(\.pitch)
    var roll = raw.map(\.roll)
    for pass in 0..<2 {
      let order: [Int] = pass == 0 ? Array(raw.indices) : raw.indices.reversed()
      var previous: Int?
      for i in order {
        if let p = previous {
          let dt = abs(samples[i].time - samples[p].time)
          let alpha = 1 - exp(-dt / tau)
          pitch[i] = pitch[p] + (pitch[i] - pitch[p]) * alpha
          roll[i] = roll[p] + (roll[i] - roll[p]) * alpha
        }
        previous = i
      }
    }
    return raw.indices.map { Inclination(pitch: pitch[$0], roll: roll[$0]) }
  }
}

private func pow2(_ x: Double) -> Double { x * x }

extension Inclination {
  init(pitch: Double, roll: Double) {
    self.pitch = pitch
    self.roll = roll
  }
}
