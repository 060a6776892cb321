import Attitude
import Foundation
import TiltCard

/// What one setting gives, sample by sample: the reference-relative attitude
/// that the card uses (as `live` runs by default), the card's pose from it,
/// and the absolute up-vector (for the error against ground truth).
public struct Trace: Sendable {
  /// Card → reference rotation per sample (identity before the first output).
  public var attitudes: [Quaternion]
  public var poses: [CardPose]
  /// The absolute up-vector in card coordinates per sample.
  public var up: [Vector3]
}

/// Runs the estimator with each filter setting over a recording and measures
/// what the card shows, on rotation angles between quaternions (no Euler
/// angle, so no singularity at ±90° pitch): the wobble at rest, the delay in
/// motion against a reference with no delay, the overshoot on stopping.
///
/// The reference is the stick's own tilt for a joystick (it has no noise),
/// else the unfiltered estimate smoothed forward and backward (zero phase).
public struct FilterScorer: Sendable {
  public let data: TuneData
  /// The estimator and reference the settings run on (`--fusion`; reference at start).
  public let base: MotionConfiguration
  public let card: CardConfiguration
  public let rest: [Bool]
  public let restRuns: [Range<Int>]
  /// The samples of each rest run after `settleTime`, where jitter is measured.
  public let settledRuns: [Range<Int>]
  /// The lag grid: evenly spaced times and, for each, the latest sample at or before it.
  public let step: Double
  public let held: [Int]
  /// The reference rotation at each grid time; `motion` marks grid times in motion.
  public let reference: [Quaternion]
  public let motion: [Bool]
  public let referenceName: String
  /// `reference` as w, x, y, z in a row, and the grid points in motion: for the lag search.
  let referenceComponents: [Double]
  let motionIndices: [Int]
  /// Where motions end in rest, for the overshoot.
  let stops: [Stop]
  /// Why jitter (at rest) or lag (in motion) cannot be measured; `nil` when it can.
  public let jitterProblem: String?
  public let lagProblem: String?
  /// Seconds of settled rest, and of motion, that the figures come from.
  public let restSeconds: Double
  public let motionSeconds: Double

  /// Whether the estimator is the gyroscope fusion, whose time constant is tunable too.
  public var usesFusion: Bool { base.usesFusion(hasGyroscope: data.hasGyroscope) }
  public var canScore: Bool { jitterProblem == nil && lagProblem == nil }

  /// Seconds after a rest starts before its wobble counts (the filter catching up).
  public static let settleTime = 0.3
  /// Settled rest needed for jitter, seconds.
  static let minimumRest = 1.0
  /// Motion needed for lag: seconds, and a turn of the reference within half a second.
  static let minimumMotion = 1.0
  static let minimumTurn = 3.0
  /// A turn below this (degrees in half a second) is no motion at all.
  static let noTurn = 0.5
  /// The largest lag searched, seconds.
  static let maxLag = 2.0
  /// After a stop, how long the output has to come to rest, seconds.
  public static let overshootWindow = 1.0

  public init(data: TuneData, base: MotionConfiguration, card: CardConfiguration) {
    self.data = data
    var base = base
    base.reference = .start
    self.base = base
    self.card = card
    let samples = data.samples
    let rest = RestSegments.find(in: data)
    self.rest = rest
    restRuns = RestSegments.runs(rest)
    settledRuns = restRuns.compactMap { run in
      let from = samples[run.lowerBound].time + FilterScorer.settleTime
      guard let first = run.first(where: { samples[$0].time >= from }), run.upperBound - first > 2
      else { return nil }
      return first..<run.upperBound
    }
    let restSeconds = settledRuns.map {
      samples[$0.upperBound - 1].time - samples[$0.lowerBound].time
    }
    .reduce(0, +)
    self.restSeconds = restSeconds

    // The grid: the median sample interval, at least 10 ms, at most 40 000 points.
    let dts = zip(samples.dropFirst(), samples).map { $0.time - $1.time }.filter { $0 > 0 }.sorted()
    let duration = max(samples.last!.time - samples[0].time, 0)
    var h = max(dts.isEmpty ? 0.01 : dts[dts.count / 2], 0.01)
    h = max(h, duration / 40_000)
    step = h
    var held: [Int] = []
    var j = 0
    let t0 = samples[0].time
    for k in 0...Int(duration / h) {
      let t = t0 + Double(k) * h
      while j + 1 < samples.count, samples[j + 1].time <= t { j += 1 }
      held.append(j)
    }
    self.held = held
    let motion = held.map { !rest[$0] }
    self.motion = motion
    let motionSeconds = Double(motion.filter { $0 }.count) * h
    self.motionSeconds = motionSeconds

    let raw = FilterScorer.run(data, base: base, card: card, setting: FilterSetting(filter: .none))
    stops = FilterScorer.stops(in: restRuns, samples: samples, raw: raw)
    let reference: [Quaternion]
    if data.isJoystick {
      reference = held.map { raw.attitudes[$0] }
      referenceName = "the stick's own tilt"
    } else {
      let smooth = FilterScorer.zeroPhase(raw.attitudes, samples: samples, tau: 0.02)
      reference = held.map { smooth[$0] }
      referenceName = "the unfiltered estimate, smoothed forward and backward (τ = 20 ms, no delay)"
    }
    self.reference = reference
    referenceComponents = reference.flatMap { [$0.w, $0.x, $0.y, $0.z] }
    motionIndices = motion.indices.filter { motion[$0] }

    if restRuns.isEmpty {
      jitterProblem =
        "no rest in this recording: jitter cannot be measured; hold the device still for a second or two"
    } else if restSeconds < FilterScorer.minimumRest {
      jitterProblem =
        "too little rest (\(String(format: "%.1f", restSeconds)) s still after settling): jitter cannot be measured; hold the device still for a second or two"
    } else {
      jitterProblem = nil
    }
    // The largest turn of the reference within half a second, in motion.
    let span = max(1, Int((0.5 / h).rounded()))
    var turn = 0.0
    for k in span..<max(span, reference.count) where motion[k] {
      turn = max(turn, degrees(rotationAngle(reference[k - span], reference[k])))
    }
    if motionSeconds == 0 || turn < FilterScorer.noTurn {
      lagProblem = "no motion in this recording: lag cannot be measured; record a few tilts"
    } else if motionSeconds < FilterScorer.minimumMotion || turn < FilterScorer.minimumTurn {
      lagProblem =
        "too little motion (\(String(format: "%.1f", motionSeconds)) s, turning at most \(String(format: "%.1f", turn))° in half a second): lag cannot be measured; record a few tilts"
    } else {
      lagProblem = nil
    }
  }

  /// What the pipeline gives with `setting`, per sample.
  public static func run(
    _ data: TuneData, base: MotionConfiguration, card: CardConfiguration, setting: FilterSetting
  ) -> Trace {
    let manager = MotionManager(
      configuration: setting.configuration(base), hasGyroscope: data.hasGyroscope)
    manager.startDeviceMotionUpdates { _ in }
    var trace = Trace(attitudes: [], poses: [], up: [])
    trace.attitudes.reserveCapacity(data.samples.count)
    trace.poses.reserveCapacity(data.samples.count)
    trace.up.reserveCapacity(data.samples.count)
    var attitude = Quaternion.identity
    var pose = CardPose.flat
    var up = Vector3(0, 0, 1)
    for sample in data.samples {
      if let motion = manager.process(sample) {
        attitude = motion.attitude.quaternion
        pose = CardPose(attitude: motion.attitude, configuration: card)
        up = -motion.gravity
      }
      trace.attitudes.append(attitude)
      trace.poses.append(pose)
      trace.up.append(up)
    }
    return trace
  }

  public func run(_ setting: FilterSetting) -> Trace {
    FilterScorer.run(data, base: base, card: card, setting: setting)
  }

  public func score(_ setting: FilterSetting) -> SettingScore {
    let trace = run(setting)
    var s = SettingScore(setting: setting)
    if jitterProblem == nil { (s.jitter, s.cardJitter, s.drift) = jitter(of: trace) }
    if lagProblem == nil {
      (s.lag, s.lagAtLimit) = lag(of: trace)
      if let o = overshoot(of: trace) { (s.overshoot, s.cardOvershoot) = o }
    }
    if data.truthUp != nil { s.error = error(of: trace) }
    return s
  }

  /// The wobble at rest: the RMS rotation angle from each settled rest
  /// stretch's mean rotation, drifting at the stretch's own steady rate (a
  /// slow creep is not a wobble; it is reported apart), degrees; the same on
  /// the card's pose, card degrees; and the drift, degrees per second.
  func jitter(of trace: Trace) -> (jitter: Double, card: Double, drift: Double) {
    var sum = 0.0
    var cardSum = 0.0
    var driftSum = 0.0
    var count = 0
    for run in settledRuns {
      let times = run.map { data.samples[$0].time }
      let mean = meanRotation(trace.attitudes[run])
      let v = run.map { (mean.conjugate * trace.attitudes[$0]).rotationVector }
      let fx = LinearFit(times, v.map(\.x))
      let fy = LinearFit(times, v.map(\.y))
      let fz = LinearFit(times, v.map(\.z))
      let px = LinearFit(times, run.map { trace.poses[$0].rotationX })
      let py = LinearFit(times, run.map { trace.poses[$0].rotationY })
      for (k, t) in times.enumerated() {
        sum += pow2(v[k].x - fx(t)) + pow2(v[k].y - fy(t)) + pow2(v[k].z - fz(t))
        let pose = trace.poses[run.lowerBound + k]
        cardSum += pow2(pose.rotationX - px(t)) + pow2(pose.rotationY - py(t))
      }
      driftSum += Double(run.count) * (pow2(fx.slope) + pow2(fy.slope) + pow2(fz.slope))
      count += run.count
    }
    guard count > 0 else { return (0, 0, 0) }
    let n = Double(count)
    return (
      degrees((sum / n).squareRoot()), (cardSum / n).squareRoot(),
      degrees((driftSum / n).squareRoot())
    )
  }

  /// The shift of the output behind the reference, in motion, that leaves
  /// them least apart (the mean of sin² of half the rotation angle between
  /// them, the squared angle over 4 when small); searched every 40 ms up
  /// to `maxLag`, then every grid step near the best, then refined between
  /// steps. Milliseconds, and whether the best is at the end of the search.
  func lag(of trace: Trace) -> (Double, Bool) {
    var out = [Double](repeating: 0, count: 4 * held.count)
    for (k, i) in held.enumerated() {
      let q = trace.attitudes[i]
      (out[4 * k], out[4 * k + 1], out[4 * k + 2], out[4 * k + 3]) = (q.w, q.x, q.y, q.z)
    }
    let maxShift = Int(FilterScorer.maxLag / step)
    let minShift = -max(2, Int((0.05 / step).rounded()))
    var memo: [Int: Double] = [:]
    // The mean of sin²(θ/2) = 1 − (p·q)², θ the angle between them: the
    // squared angle over 4 for small angles, with no trigonometry.
    func cost(_ shift: Int) -> Double {
      if let c = memo[shift] { return c }
      var sum = 0.0
      var count = 0
      out.withUnsafeBufferPointer { o in
        referenceComponents.withUnsafeBufferPointer { r in
          motionIndices.withUnsafeBufferPointer { m in
            let n = held.count
            for k in m where k - shift >= 0 && k - shift < n {
              let a = 4 * k
              let b = 4 * (k - shift)
              let d = o[a] * r[b] + o[a + 1] * r[b + 1] + o[a + 2] * r[b + 2] + o[a + 3] * r[b + 3]
              sum += 1 - d * d
              count += 1
            }
          }
        }
      }
      let c = count == 0 ? Double.infinity : sum / Double(count)
      memo[shift] = c
      return c
    }
    let coarse = max(1, Int((0.04 / step).rounded()))
    var best = 0
    for shift in stride(from: minShift, through: maxShift, by: coarse)
    where cost(shift) < cost(best) {
      best = shift
    }
    let near = best
    for shift in max(minShift, near - coarse + 1)...min(maxShift, near + coarse - 1)
    where cost(shift) < cost(best) {
      best = shift
    }
    guard cost(best).isFinite else { return (0, false) }
    var refined = Double(best)
    if best > minShift, best < maxShift {
      let (a, b, c) = (cost(best - 1), cost(best), cost(best + 1))
      let denominator = a - 2 * b + c
      if denominator > 0 { refined += 0.5 * (a - c) / denominator }
    }
    return (max(0, refined) * step * 1000, best >= maxShift)
  }

  /// After each motion, the largest swing of the output past where it comes
  /// to rest, along the way it was turning, within `overshootWindow`: degrees
  /// of rotation, and card degrees. `nil` when no motion ends in a long
  /// enough rest.
  func overshoot(of trace: Trace) -> (Double, Double)? {
    guard !stops.isEmpty else { return nil }
    var worst = (0.0, 0.0)
    for stop in stops {
      let final = meanRotation(stop.settled.map { trace.attitudes[$0] })
      let n = Double(stop.settled.count)
      let finalX = stop.settled.map { trace.poses[$0].rotationX }.reduce(0, +) / n
      let finalY = stop.settled.map { trace.poses[$0].rotationY }.reduce(0, +) / n
      let u = stop.direction
      for i in stop.swing {
        let v = (final.conjugate * trace.attitudes[i]).rotationVector
        worst.0 = max(worst.0, degrees(v.dot(u)))
        if let (dx, dy) = stop.cardDirection {
          worst.1 = max(
            worst.1,
            (trace.poses[i].rotationX - finalX) * dx + (trace.poses[i].rotationY - finalY) * dy)
        }
      }
    }
    return worst
  }

  /// A motion that ends in a rest long enough to see an overshoot: the way the
  /// unfiltered estimate was turning in the half second before it stopped.
  struct Stop {
    /// The samples of the first `overshootWindow` of the rest, and those after.
    var swing: Range<Int>
    var settled: Range<Int>
    /// Past the final attitude, away from where it came from: a unit rotation
    /// vector in card coordinates, and on the card's pose (`nil` if it did not move).
    var direction: Vector3
    var cardDirection: (Double, Double)?
  }

  static func stops(in runs: [Range<Int>], samples: [MotionSample], raw: Trace) -> [Stop] {
    var stops: [Stop] = []
    for run in runs where run.lowerBound > 0 {
      let start = samples[run.lowerBound].time
      let settledFrom = start + FilterScorer.overshootWindow
      guard let first = run.first(where: { samples[$0].time >= settledFrom }),
        run.upperBound - first > 1
      else { continue }
      let settled = first..<run.upperBound
      let final = meanRotation(raw.attitudes[settled])
      var b = run.lowerBound
      while b > 0, samples[b].time > start - 0.5 { b -= 1 }
      let approach = (final.conjugate * raw.attitudes[b]).rotationVector
      guard approach.length > 0.5 * .pi / 180 else { continue }
      let n = Double(settled.count)
      let dx = settled.map { raw.poses[$0].rotationX }.reduce(0, +) / n - raw.poses[b].rotationX
      let dy = settled.map { raw.poses[$0].rotationY }.reduce(0, +) / n - raw.poses[b].rotationY
      let length = (dx * dx + dy * dy).squareRoot()
      stops.append(
        Stop(
          swing: run.lowerBound..<first, settled: settled, direction: -approach / approach.length,
          cardDirection: length > 0.05 ? (dx / length, dy / length) : nil))
    }
    return stops
  }

  /// RMS angle between the output's and the true vertical, degrees, over the
  /// samples that BROAD scores (in motion, with ground truth).
  func error(of trace: Trace) -> Double? {
    guard let truth = data.truthUp else { return nil }
    var sum = 0.0
    var count = 0
    for i in truth.indices {
      guard let up = truth[i], data.fileRest?[i] != true else { continue }
      let cosine = max(-1, min(1, trace.up[i].dot(up) / (trace.up[i].length * up.length)))
      sum += pow2(degrees(acos(cosine)))
      count += 1
    }
    return count == 0 ? nil : (sum / Double(count)).squareRoot()
  }

  /// An exponential low-pass on rotations run forward then backward: smooth with no delay.
  static func zeroPhase(_ raw: [Quaternion], samples: [MotionSample], tau: Double) -> [Quaternion] {
    var q = raw
    let smoothing = SmoothingFactor(timeConstant: tau)
    for pass in 0..<2 {
      let order: [Int] = pass == 0 ? Array(raw.indices) : raw.indices.reversed()
      var previous: Int?
      for i in order {
        if let p = previous {
          let dt = abs(samples[i].time - samples[p].time)
          q[i] = q[p].slerp(to: q[i], t: smoothing.alpha(for: dt))
        }
        previous = i
      }
    }
    return q
  }
}

/// The least-squares line through (x, y) points.
struct LinearFit {
  var slope = 0.0
  var intercept = 0.0

  init(_ x: [Double], _ y: [Double]) {
    let n = Double(x.count)
    guard n > 0 else { return }
    let mx = x.reduce(0, +) / n
    let my = y.reduce(0, +) / n
    var sxy = 0.0
    var sxx = 0.0
    for i in x.indices {
      sxy += (x[i] - mx) * (y[i] - my)
      sxx += (x[i] - mx) * (x[i] - mx)
    }
    slope = sxx > 0 ? sxy / sxx : 0
    intercept = my - slope * mx
  }

  func callAsFunction(_ x: Double) -> Double { intercept + slope * x }
}

/// The angle of the rotation from `a` to `b`, radians, in 0…π; exact for small angles.
func rotationAngle(_ a: Quaternion, _ b: Quaternion) -> Double {
  let d = a.conjugate * b
  let sine = (d.x * d.x + d.y * d.y + d.z * d.z).squareRoot()
  return 2 * atan2(sine, abs(d.w))
}

/// The mean of rotations close together: their quaternions on one side, summed, normalised.
func meanRotation(_ rotations: [Quaternion]) -> Quaternion {
  meanRotation(rotations[...])
}

func meanRotation(_ rotations: ArraySlice<Quaternion>) -> Quaternion {
  guard let first = rotations.first else { return .identity }
  var sum = Quaternion(w: 0, x: 0, y: 0, z: 0)
  for q in rotations {
    let sign = first.w * q.w + first.x * q.x + first.y * q.y + first.z * q.z < 0 ? -1.0 : 1.0
    sum = Quaternion(
      w: sum.w + sign * q.w, x: sum.x + sign * q.x, y: sum.y + sign * q.y, z: sum.z + sign * q.z)
  }
  return sum.normalized
}

func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

private func pow2(_ x: Double) -> Double { x * x }
