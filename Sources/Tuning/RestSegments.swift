import Attitude

/// Which samples are at rest: the file's own marks where it has them, else
/// found in the signal, keeping only stretches of at least `minimumRest` seconds.
///
/// Found in two steps. First, a sample is at rest when the gyroscope (if any)
/// is still and the accelerometer reads a steady 1 g over the `window` before
/// it *and* the window after it: a window on one side only lets a rest run on
/// into the start of a motion until the motion fills the window (0.3 s on a
/// plain accelerometer, where nothing else sees the motion start). Then each
/// stretch's edges are set by the accelerometer's own noise: the rest goes on
/// while the reading stays within `band` noise deviations of the stretch's
/// mean, and ends where the deviation starts to grow out of the noise.
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
  /// The least accelerometer noise assumed, g: a device that filters small
  /// changes out (evdev's fuzz) reads the same value at rest, noise zero.
  static let noiseFloor = 0.0005
  /// A gyroscope turning faster than this, rad/s, is moving.
  static let stillRate = 0.1

  static func find(in data: TuneData) -> [Bool] {
    if let marks = data.fileRest, marks.contains(true) { return keepLong(marks, data.samples) }
    let samples = data.samples
    let n = samples.count
    // Whether the window ending at each sample is a steady 1 g.
    var steady = [Bool](repeating: false, count: n)
    var start = 0
    var sum = Vector3.zero
    var sumSquares = 0.0
    for i in samples.indices {
      sum += samples[i].acceleration
      sumSquares += samples[i].acceleration.lengthSquared
      while samples[i].time - samples[start].time > window {
        sum -= samples[start].acceleration
        sumSquares -= samples[start].acceleration.lengthSquared
        start += 1
      }
      let count = Double(i - start + 1)
      let mean = sum / count
      let spread = max(0, sumSquares / count - mean.lengthSquared).squareRoot()
      steady[i] = spread < 0.02 && abs(mean.length - 1) < 0.1
    }
    func still(_ i: Int) -> Bool { samples[i].rotationRate.map { $0.length < stillRate } ?? true }
    // Steady on both sides: the window before the sample, and the one after it.
    var seed = [Bool](repeating: false, count: n)
    var ahead = 0
    for i in samples.indices {
      ahead = max(ahead, i)
      while ahead + 1 < n, samples[ahead + 1].time <= samples[i].time + window { ahead += 1 }
      seed[i] = steady[i] && steady[ahead] && still(i)
    }
    // Short stretches too: a still moment of 0.6 s leaves 0.35 s between
    // its two windows, and its edges are found from the noise below.
    let seeds = runs(seed)
    guard !seeds.isEmpty else { return seed }
    let sigma = noise(samples, in: seeds)
    var rest = [Bool](repeating: false, count: n)
    for run in seeds {
      // The stretch's reading, from its middle (its edges may hold the
      // first or last of a motion).
      let t0 = samples[run.lowerBound].time + window
      let t1 = samples[run.upperBound - 1].time - window
      var core = run.filter { samples[$0].time >= t0 && samples[$0].time <= t1 }
      if core.isEmpty { core = Array(run) }
      var mean = Vector3.zero
      for i in core { mean += samples[i].acceleration }
      mean = mean / Double(core.count)
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
  /// second differences of its readings at rest, which a slow drift leaves
  /// out: their median over 0.6745 (a normal's median deviation) and √6
  /// (the second difference of white noise has 6 times its variance).
  static func noise(_ samples: [MotionSample], in runs: [Range<Int>]) -> Double {
    var values: [Double] = []
    for run in runs where run.count >= 3 {
      for i in (run.lowerBound + 1)..<(run.upperBound - 1) {
        let d =
          samples[i + 1].acceleration - samples[i].acceleration * 2 + samples[i - 1].acceleration
        values += [abs(d.x), abs(d.y), abs(d.z)]
      }
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
