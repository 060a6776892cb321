import Attitude

/// The accelerometer's readings over any window of samples, in constant
/// time: their mean, the least-squares line through them (the way a slow
/// tilt moves the reading) and their scatter about that line.
struct ReadingWindows {
  /// Running sums from the first sample: time (from the first sample), its
  /// square, the reading, time × reading, and the reading's squared length.
  private var t: [Double]
  private var tt: [Double]
  private var a: [Vector3]
  private var ta: [Vector3]
  private var aa: [Double]

  /// What the readings `from..<to` show.
  struct Window {
    var count: Int
    var mean: Vector3
    /// How the reading moves, g per second, and how much the samples' times
    /// spread (Σ(t − t̄)², s²): the slope's noise is σ / √spread on each axis.
    var slope: Vector3
    var spread: Double
    /// The summed variance of the three axes about the line, g².
    var scatter: Double
  }

  init(_ samples: [MotionSample]) {
    let n = samples.count
    t = [Double](repeating: 0, count: n + 1)
    tt = t
    aa = t
    a = [Vector3](repeating: .zero, count: n + 1)
    ta = a
    let start = samples.first?.time ?? 0
    for (i, sample) in samples.enumerated() {
      let time = sample.time - start
      let reading = sample.acceleration
      t[i + 1] = t[i] + time
      tt[i + 1] = tt[i] + time * time
      a[i + 1] = a[i] + reading
      ta[i + 1] = ta[i] + reading * time
      aa[i + 1] = aa[i] + reading.lengthSquared
    }
  }

  func window(_ from: Int, _ to: Int) -> Window {
    let count = to - from
    let n = Double(max(count, 1))
    let meanTime = (t[to] - t[from]) / n
    let mean = (a[to] - a[from]) / n
    let spread = max(0, tt[to] - tt[from] - n * meanTime * meanTime)
    let moment = ta[to] - ta[from] - mean * (n * meanTime)
    let slope = spread > 0 ? moment / spread : .zero
    // Σ|a − ā|² less what the line explains, |Σ(t − t̄)(a − ā)|² / Σ(t − t̄)².
    let about = aa[to] - aa[from] - n * mean.lengthSquared
    let explained = spread > 0 ? moment.lengthSquared / spread : 0
    let freedom = Double(max(count - 2, 1))
    return Window(
      count: count, mean: mean, slope: slope, spread: spread,
      scatter: max(0, about - explained) / freedom)
  }
}
