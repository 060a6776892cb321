import Attitude
import Foundation

/// One BROAD trial (../shared/data/broad), read from its CSV file.
struct BroadTrial {
  var name: String
  /// Samples in g and rad/s, axes as recorded (the IMU frame is the card frame here).
  var samples: [MotionSample] = []
  /// True world up in the sensor frame (third row of the ground-truth
  /// rotation), or nil where the markers were lost.
  var trueUp: [Vector3?] = []
  /// Whether BROAD scores the sample (`movement` = 1).
  var scored: [Bool] = []
  /// The accelerometer's range, g, from `NAME.range` beside `NAME.csv` (the
  /// simulated devices' description: AttitudeBench --simulate writes it);
  /// nil for BROAD, whose IMU reads ±16 g and never reaches it.
  var accelerometerRange: Double?
  /// The gyroscope's range, rad/s: the second number of `NAME.range`.
  var gyroscopeRange: Double?

  static let standardGravity = 9.80665

  struct ReadError: Error, CustomStringConvertible {
    var description: String
  }

  init(contentsOf url: URL) throws {
    name = url.deletingPathExtension().lastPathComponent
    let rangeURL = url.deletingPathExtension().appendingPathExtension("range")
    if let text = try? String(contentsOf: rangeURL, encoding: .utf8) {
      let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { Double($0) }
      guard (1...2).contains(fields.count), let accel = fields[0], accel > 0,
        fields.count == 1 || (fields[1] ?? 0) > 0
      else {
        throw ReadError(
          description:
            "\(rangeURL.path):1: expected the accelerometer's range in g and optionally the "
            + "gyroscope's in rad/s, numbers > 0")
      }
      accelerometerRange = accel
      gyroscopeRange = fields.count == 2 ? fields[1] : nil
    }
    let text: String
    do {
      text = try String(contentsOf: url, encoding: .utf8)
    } catch {
      let reason =
        FileManager.default.fileExists(atPath: url.path)
        ? "cannot read it as UTF-8 text" : "no such file"
      throw ReadError(description: "\(url.path): \(reason): expected a BROAD-format CSV")
    }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: true).makeIterator()
    guard let header = lines.next() else {
      throw ReadError(description: "\(url.path):1: empty file, expected a header row")
    }
    let names = header.split(separator: ",").map(String.init)
    func column(_ name: String) throws -> Int {
      guard let i = names.firstIndex(of: name) else {
        throw ReadError(description: "\(url.path):1: no column named \(name)")
      }
      return i
    }
    let t = try column("t_s")
    let gyr = try ["gyr_x_rad_s", "gyr_y_rad_s", "gyr_z_rad_s"].map(column)
    let acc = try ["acc_x_m_s2", "acc_y_m_s2", "acc_z_m_s2"].map(column)
    let movement = try column("movement")
    let q = try ["opt_qw", "opt_qx", "opt_qy", "opt_qz"].map(column)
    var lineNumber = 1
    while let line = lines.next() {
      lineNumber += 1
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      func value(_ i: Int) throws -> Double {
        guard i < fields.count, let v = Double(fields[i]) else {
          throw ReadError(
            description: "\(url.path):\(lineNumber): column \(names[i]) is not a number")
        }
        return v
      }
      let g = BroadTrial.standardGravity
      samples.append(
        MotionSample(
          time: try value(t),
          acceleration: Vector3(
            try value(acc[0]) / g, try value(acc[1]) / g, try value(acc[2]) / g),
          rotationRate: Vector3(try value(gyr[0]), try value(gyr[1]), try value(gyr[2]))))
      let truth = Quaternion(
        w: try value(q[0]), x: try value(q[1]), y: try value(q[2]), z: try value(q[3]))
      trueUp.append(truth.isFinite ? truth.normalized.upVector : nil)
      scored.append(try value(movement) == 1)
    }
  }

  /// Root mean square, in degrees, of the angle between estimated and true
  /// up vectors over the scored samples with a ground truth.
  func inclinationRMSE(estimatedUp: [Vector3]) -> Double {
    var sum = 0.0
    var count = 0
    for i in samples.indices where scored[i] {
      guard let truth = trueUp[i] else { continue }
      let e = estimatedUp[i]
      let angle = atan2(e.cross(truth).length, e.dot(truth))
      sum += angle * angle
      count += 1
    }
    return (sum / Double(max(count, 1))).squareRoot() * 180 / .pi
  }

  /// Root mean square error, degrees, of every 10 s window of the trial,
  /// one starting each second from the first sample (scored samples with a
  /// ground truth only; 0 for a window without any): the windows that
  /// compare_with_vqf.py computes alike for VQF.
  func inclinationWindows(estimatedUp: [Vector3], length: Double = 10) -> [Double] {
    guard let first = samples.first?.time, let last = samples.last?.time else { return [] }
    let count = max(1, Int(((last - first - length) + 1e-9).rounded(.down)) + 1)
    var sums = [Double](repeating: 0, count: count)
    var counts = [Int](repeating: 0, count: count)
    for i in samples.indices where scored[i] {
      guard let truth = trueUp[i] else { continue }
      let e = estimatedUp[i]
      let angle = atan2(e.cross(truth).length, e.dot(truth))
      let offset = samples[i].time - first
      // Windows k with k ≤ offset < k + length.
      let lowest = max(0, Int((offset - length).rounded(.down)) + 1)
      let highest = min(count - 1, Int(offset.rounded(.down)))
      if lowest <= highest {
        for k in lowest...highest {
          sums[k] += angle * angle
          counts[k] += 1
        }
      }
    }
    return sums.indices.map {
      counts[$0] == 0 ? 0 : (sums[$0] / Double(counts[$0])).squareRoot() * 180 / .pi
    }
  }
}
