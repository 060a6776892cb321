import Attitude

/// Which samples are at rest: the file's own marks where it has them, else
/// found in the signal (a still gyroscope and a steady 1 g accelerometer over
/// a window), keeping only stretches of at least `minimumRest` seconds.
enum RestSegments {
  static let window = 0.25
  static let minimumRest = 0.5

  static func find(in data: TuneData) -> [Bool] {
    if let marks = data.fileRest, marks.contains(true) { return keepLong(marks, data.samples) }
    let samples = data.samples
    var rest = [Bool](repeating: false, count: samples.count)
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
      let n = Double(i - start + 1)
      let mean = sum / n
      let spread = max(0, sumSquares / n - mean.lengthSquared).squareRoot()
      let steadyAccel = spread < 0.02 && abs(mean.length - 1) < 0.1
      let stillGyro = samples[i].rotationRate.map { $0.length < 0.1 } ?? true
      rest[i] = steadyAccel && stillGyro
    }
    return keepLong(rest, samples)
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
