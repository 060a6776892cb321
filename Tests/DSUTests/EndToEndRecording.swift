import Foundation

/// A CSV recording (contract §2; CSV axes are card axes) with known motion, for
/// the end-to-end tests: at 100 Hz, for each card axis x, y, z in turn,
/// `rest` s still and face up, then 1 s turning at +30 deg/s about that axis
/// and 1 s at −30 deg/s back to face up. The accelerometer follows the turn
/// (the up vector in card coordinates: (0, sin θ, cos θ) about x,
/// (−sin θ, 0, cos θ) about y, face up throughout about z).
enum KnownMotionRecording {
  static let rate = 100.0
  static let turnRate = 30.0
  static let rest = 0.5

  /// One sample: card-frame accelerometer in g, gyroscope in deg/s.
  struct Sample {
    var t: Double
    var a: SIMD3<Double>
    var w: SIMD3<Double>
  }

  static var samples: [Sample] {
    var out: [Sample] = []
    var t = 0.0
    let dt = 1 / rate
    for axis in 0..<3 {
      for _ in 0..<Int(rest * rate) {
        out.append(Sample(t: t, a: [0, 0, 1], w: .zero))
        t += dt
      }
      for i in 0..<Int(2 * rate) {
        let sign = i < Int(rate) ? 1.0 : -1.0
        // The angle reached at this sample, in degrees.
        let theta =
          i < Int(rate)
          ? turnRate * Double(i + 1) * dt : turnRate * Double(2 * Int(rate) - i - 1) * dt
        let s = sin(theta * .pi / 180)
        let c = cos(theta * .pi / 180)
        var w = SIMD3<Double>.zero
        w[axis] = sign * turnRate
        let a: SIMD3<Double> = axis == 0 ? [0, s, c] : axis == 1 ? [-s, 0, c] : [0, 0, 1]
        out.append(Sample(t: t, a: a, w: w))
        t += dt
      }
    }
    return out
  }

  /// Writes the recording into `directory` and returns its path.
  static func write(in directory: URL) throws -> URL {
    var text = "t_s,acc_x_g,acc_y_g,acc_z_g,gyr_x_deg_s,gyr_y_deg_s,gyr_z_deg_s\n"
    for s in samples {
      text += String(
        format: "%.4f,%.6f,%.6f,%.6f,%.4f,%.4f,%.4f\n", s.t, s.a.x, s.a.y, s.a.z, s.w.x, s.w.y,
        s.w.z)
    }
    let url = directory.appendingPathComponent("known-turns.csv")
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  /// A fresh temporary directory for one test.
  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-dsu-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
