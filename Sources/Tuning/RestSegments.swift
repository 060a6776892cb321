import Attitude

/// Which samples are at rest: the file's own marks where it has them, else
/// found in the signal, keeping only stretches of at least `minimumRest` seconds.
///
/// Every test is against the accelerometer's own noise, measured in the
/// recording (``noise(_:)``), never a threshold in g: a threshold lets a slow
/// tilt pass for rest on a quiet sensor and finds no rest on a noisy one.
/// Found in two steps. First, a sample is at rest when the gyroscope (if any)
/// is still and the readings over the `window` before it and the window after
/// it, together, read near 1 g, do not move (the slope of their line is
/// within the noise: a slow tilt) and scatter about that line no more than the
/// noise does (a shake). Then each stretch's edges are set by the noise too:
/// the rest goes on while the reading stays within `band` noise deviations of
/// the stretch's mean, and ends where the deviation starts to grow out of the
/// noise. A window on one side only would let a rest run on into the start of
/// a motion until the motion filled it (0.3 s on a plain accelerometer, where
/// nothing else sees the motion start).
enum RestSegments {
  static let window = 0.25
  static let minimumRest = 0.5
  /// A deviation from the rest's mean reading beyond this many noise
  /// deviations (the 3-axis noise's length exceeds 5σ about once in 70 000
  /// samples), on two samples in a row, is motion.
  static let band = 5.0
  /// Back from there, the motion starts where the deviation, averaged over
  /// five samples, falls to this many noise deviations: above the noise's
  /// mean length (1.6σ) by three standard deviations of that average (0.3σ).
  static let onset = 2.5
  /// How far a window's statistics may stray from what noise alone gives, in
  /// their own standard deviations: its scatter (3σ² on average, a χ² of
  /// 3(N − 2) degrees of freedom, so a relative deviation of √(2 / (3(N − 2))))
  /// and its slope's squared length over its noise (a χ² of 3: 3 ± √6).
  static let deviations = 4.0
  /// The least accelerometer noise assumed, g: a device that filters small
  /// changes out (evdev's fuzz) reads the same value at rest, noise zero.
  static let noiseFloor = 0.0005
  /// A gyroscope turning faster than this, rad/s, is moving.
  static let stillRate = 0.1

  static func find(in data: TuneData) -> [Bool] {
    if let marks = data.fileRest, marks.contains(true) { return keepLong(marks, data.samples) }
    let samples = data.samples
    let n = samples.count
    let sigma = noise(samples)
    let variance = sigma * sigma
    let windows = ReadingWindows(samples)
    /// Whether the readings `from..<to` are a still device's: near 1 g, not
    /// moving beyond the noise, scattering as the noise does.
    func steady(_ from: Int, _ to: Int) -> Bool {
      let w = windows.window(from, to)
      guard w.count >= 4 else { return false }
      let scatterLimit =
        3 * variance * (1 + deviations * (2 / (3 * Double(w.count - 2))).squareRoot())
      let slopeLimit = (3 + deviations * 6.0.squareRoot()) * variance
      return abs(w.mean.length - 1) < 0.1 && w.scatter <= scatterLimit
        && w.slope.lengthSquared * w.spread <= slopeLimit
    }
    func still(_ i: Int) -> Bool { samples[i].rotationRate.map { $0.length < stillRate } ?? true }
    var seed = [Bool](repeating: false, count: n)
    var behind = 0
    var ahead = 0
    for i in samples.indices {
      while samples[i].time - samples[behind].time > window { behind += 1 }
      ahead = max(ahead, i)
      while ahead + 1 < n, samples[ahead + 1].time <= samples[i].time + window { ahead += 1 }
      seed[i] = still(i) && steady(behind, ahead + 1)
    }
    // Short stretches too: a still moment of 0.6 s leaves 0.1 s of seeds
    // between its windows, and its edges are found from the noise below.
    let seeds = runs(seed)
    guard !seeds.isEmpty else { return seed }
    var rest = [Bool](repeating: false, count: n)
    for run in seeds {
      // The stretch's reading, from its middle (its edges may hold the
      // first or last of a motion).
      let t0 = samples[run.lowerBound].time + window
      let t1 = samples[run.upperBound - 1].time - window
      var core = run.filter { samples[$0].time >= t0 && samples[$0].time <= t1 }
      if core.isEmpty { core = Array(run) }
      let mean = windows.window(core.first!, core.last! + 1).mean
      func deviation(_ i: Int) -> Double { (samples[i].acceleration - mean).length / sigma }
      func smoothed(_ i: Int) -> Double {
        let around = max(0, i - 2)...min(n - 1, i + 2)
        return around.map(deviation).reduce(0, +) / Double(around.count)
      }
      func moving(_ i: Int) -> Bool { !still(i) || deviation(i) > band }
      // Forward from the middle to the first clear motion, then back to where it began.
      var end = core.last! + 1
      while end < n, !(moving(end) && (end + 1 == n || moving(end + 1))) { end += 1 }
      while end - 1 > core.last!, end < n, smoothed(end - 1) > onset { end -= 1 }
      var begin = core.first!
      while begin > 0, !(moving(begin - 1) && (begin - 1 == 0 || moving(begin - 2))) { begin -= 1 }
      while begin < core.first!, begin > 0, smoothed(begin) > onset { begin += 1 }
      for k in begin..<end { rest[k] = true }
    }
    return keepLong(rest, samples)
  }

  /// The accelerometer's noise, g (one axis, standard deviation), from the
  /// second differences of its readings, which a slow drift and a smooth
  /// motion leave out: their median over 0.6745 (a normal's median deviation)
  /// and √6 (the second difference of white noise has 6 times its variance).
  /// Zeros are left out: a reading counted in steps coarser than its noise
  /// (or held by evdev's fuzz) mostly repeats, and then its changes, a step
  /// or more, are what a rest shows.
  static func noise(_ samples: [MotionSample]) -> Double {
    var values: [Double] = []
    values.reserveCapacity(3 * samples.count)
    for i in samples.indices.dropFirst().dropLast() {
      let d =
        samples[i + 1].acceleration - samples[i].acceleration * 2 + samples[i - 1].acceleration
      for value in [abs(d.x), abs(d.y), abs(d.z)] where value > 0 { values.append(value) }
    }
    guard !values.isEmpty else { return noiseFloor }
    values.sort()
    return max(noiseFloor, values[values.count / 2] / 0.6745 / 6.0.squareRoot())
  }

  /// The rest marks without stretches shorter than `minimumRest`.
  private static func keepLong(_ marks: [Bool], _ samples: [MotionSample]) -> [Bool] {
    var out = marks
    for run in runs(marks)
    where samples[run.upperBound - 1].time - samples[run.lowerBound].time < minimumRest {
      for k in run { out[k] = false }
    }
    return out
  }

  /// The contiguous runs of `true`, as index ranges.
  static func runs(_ marks: [Bool]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var i = 0
    while i < marks.count {
      guard marks[i] else {
        i += 1
        continue
      }
      var j = i
      while j < marks.count, marks[j] { j += 1 }
      result.append(i..<j)
      i = j
    }
    return result
  }
}
