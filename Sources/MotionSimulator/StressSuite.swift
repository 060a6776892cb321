import Attitude
import Foundation

/// A smooth random signal: a sum of sinusoids with random directions,
/// frequencies and phases, scaled to a root-mean-square magnitude.
public struct RandomMotion: Sendable {
  var components: [(amplitude: Vector3, frequency: Double, phase: Double)] = []

  /// `count` sinusoids with frequencies in `frequencies` (Hz); the sum's
  /// root-mean-square magnitude is `rms`.
  public init(
    rms: Double, frequencies: ClosedRange<Double>, count: Int = 6, using rng: inout SeededGenerator
  ) {
    // Each sinusoid of amplitude a adds a²/2 to the mean square.
    let amplitude = rms * (2.0 / Double(count)).squareRoot()
    for _ in 0..<count {
      components.append(
        (rng.direction() * amplitude, rng.uniform(frequencies), rng.uniform(0...(2 * .pi))))
    }
  }

  /// A sinusoid along one direction.
  public init(along direction: Vector3, amplitude: Double, frequency: Double) {
    components = [(direction * amplitude, frequency, 0)]
  }

  public func value(at t: Double) -> Vector3 {
    var v = Vector3.zero
    for c in components { v += c.amplitude * sin(2 * .pi * c.frequency * t + c.phase) }
    return v
  }
}

/// 1 inside `start..<end`, 0 outside, with raised-cosine edges of `edge` seconds.
public func window(_ t: Double, _ start: Double, _ end: Double, edge: Double = 0.5) -> Double {
  if t <= start || t >= end { return 0 }
  let rise = min((t - start) / edge, 1)
  let fall = min((end - t) / edge, 1)
  let x = min(rise, fall)
  return 0.5 - 0.5 * cos(.pi * x)
}

/// One case of the stress suite.
public struct StressCase: Sendable {
  public var name: String
  /// What it exercises, for the benchmark's table.
  public var summary: String
  public var make: @Sendable (UInt64) -> SimulatedRecording

  public func recording(seed: UInt64) -> SimulatedRecording { make(seed) }
}

/// The simulated stress suite: each case a trajectory and a
/// sensor, both drawn from the seed (frequencies, directions, amplitudes
/// within the case's ranges), so that other seeds are a held-out set.
public enum StressSuite {
  /// A hand moving a device: rotation and translation of everyday use.
  static func hand(_ rng: inout SeededGenerator, rotation: Double, translation: Double)
    -> (RandomMotion, RandomMotion)
  {
    (
      RandomMotion(rms: rotation * .pi / 180, frequencies: 0.1...1.0, using: &rng),
      RandomMotion(rms: translation, frequencies: 0.3...2.0, using: &rng)
    )
  }

  static func tilted(_ rng: inout SeededGenerator) -> Quaternion {
    Quaternion(axis: rng.direction(), angle: rng.uniform(0...0.8))
  }

  /// DualSense-like: 250 Hz, ±4 g, ±2000 °/s, 1/8192 g and 1/1024 °/s counts.
  static func dualSense(_ rng: inout SeededGenerator) -> SensorModel {
    var s = SensorModel()
    s.rate = 250
    s.accelerometerRange = 4
    s.samplingJitter = 0.0002
    s.gyroscopeBias = rng.gaussianVector(0.5 * .pi / 180)
    s.accelerometerBias = rng.gaussianVector(0.005)
    s.gyroscopeScaleError = rng.gaussianVector(0.003)
    s.accelerometerScaleError = rng.gaussianVector(0.003)
    return s
  }

  /// A wide-range IMU like BROAD's: 285.714 Hz, ±16 g, ±2000 °/s.
  static func wideRange(_ rng: inout SeededGenerator) -> SensorModel {
    var s = dualSense(&rng)
    s.rate = 285.714
    s.accelerometerRange = 16
    s.accelerometerResolution = 1.0 / 2048
    return s
  }

  public static let cases: [StressCase] = [
    StressCase(
      name: "breakaway",
      summary:
        "hand motion, then 8 s of 4–10 g translation with 300 °/s rotation, then hand motion",
      make: { seed in
        var rng = SeededGenerator(seed: seed)
        let (turn, push) = hand(&rng, rotation: 40, translation: 0.2)
        let burstStart = rng.uniform(18...22)
        let burstLength = rng.uniform(6...9)
        let burstTurn = RandomMotion(
          rms: rng.uniform(300...340) * .pi / 180 * 1.1, frequencies: 0.8...2.5, using: &rng)
        let burstPush = RandomMotion(rms: rng.uniform(4...6), frequencies: 2...6, using: &rng)
        let end = burstStart + burstLength
        return SimulatedRecording(
          name: "breakaway",
          trajectory: Trajectory(
            duration: end + 30, start: tilted(&rng),
            angularVelocity: { t in
              let b = window(t, burstStart, end)
              return turn.value(at: t) * (1 - b) + burstTurn.value(at: t) * b
            },
            linearAcceleration: { t in
              let b = window(t, burstStart, end)
              return push.value(at: t) * (1 - b) + burstPush.value(at: t) * b
            }),
          sensor: wideRange(&rng), seed: rng.next())
      }),
    StressCase(
      name: "shake",
      summary: "20 s of a 1.5–3 g shake at 3–8 Hz with hand rotation",
      make: { seed in
        var rng = SeededGenerator(seed: seed)
        let (turn, push) = hand(&rng, rotation: 30, translation: 0.1)
        let shake = RandomMotion(
          along: rng.direction(), amplitude: rng.uniform(1.5...3), frequency: rng.uniform(3...8))
        return SimulatedRecording(
          name: "shake",
          trajectory: Trajectory(
            duration: 50, start: tilted(&rng), angularVelocity: { turn.value(at: $0) },
            linearAcceleration: { t in push.value(at: t) + shake.value(at: t) * window(t, 15, 35) }
          ),
          sensor: wideRange(&rng), seed: rng.next())
      }),
    StressCase(
      name: "clipped-2g",
      summary:
        "a 6 s shake of 3–5 g at 3–8 Hz on a ±2 g accelerometer (Steam Deck), rest around it",
      make: { seed in clippedShake(seed: seed, range: 2, amplitude: 3...5, name: "clipped-2g") }),
    StressCase(
      name: "clipped-4g",
      summary: "a 6 s shake of 5–8 g at 3–8 Hz on a ±4 g accelerometer (DualSense), rest around it",
      make: { seed in clippedShake(seed: seed, range: 4, amplitude: 5...8, name: "clipped-4g") }),
    StressCase(
      name: "gyro-saturation",
      summary: "hand motion with 0.3 s flicks of 2500–3000 °/s peak on a ±2000 °/s gyroscope",
      make: { seed in
        var rng = SeededGenerator(seed: seed)
        let (turn, push) = hand(&rng, rotation: 40, translation: 0.2)
        var flicks: [(time: Double, axis: Vector3, peak: Double)] = []
        var t = 10.0
        while t < 50 {
          flicks.append((t, rng.direction(), rng.uniform(2500...3000) * .pi / 180))
          t += rng.uniform(4...8)
        }
        let all = flicks
        return SimulatedRecording(
          name: "gyro-saturation",
          trajectory: Trajectory(
            duration: 70, start: tilted(&rng),
            angularVelocity: { t in
              var w = turn.value(at: t)
              for f in all where t >= f.time && t < f.time + 0.3 {
                w += f.axis * (f.peak * sin(.pi * (t - f.time) / 0.3))
              }
              return w
            },
            linearAcceleration: { push.value(at: $0) }),
          sensor: wideRange(&rng), seed: rng.next())
      }),
    StressCase(
      name: "sustained-combined",
      summary: "3 minutes of fast combined rotation (90 °/s) and translation (0.7 g)",
      make: { seed in
        var rng = SeededGenerator(seed: seed)
        let (turn, push) = hand(&rng, rotation: 90, translation: 0.7)
        return SimulatedRecording(
          name: "sustained-combined",
          trajectory: Trajectory(
            duration: 180, start: tilted(&rng), angularVelocity: { turn.value(at: $0) },
            linearAcceleration: { push.value(at: $0) }),
          sensor: wideRange(&rng), seed: rng.next())
      }),
    StressCase(
      name: "slow-drift",
      summary: "2 minutes of a slow turn (2–4 °/s) with a 0.5–1.5 °/s gyroscope bias",
      make: { seed in
        var rng = SeededGenerator(seed: seed)
        let turn = RandomMotion(
          rms: rng.uniform(2...4) * .pi / 180, frequencies: 0.01...0.05, count: 3, using: &rng)
        var sensor = dualSense(&rng)
        sensor.gyroscopeBias = rng.direction() * (rng.uniform(0.5...1.5) * .pi / 180)
        return SimulatedRecording(
          name: "slow-drift",
          trajectory: Trajectory(
            duration: 120, start: tilted(&rng), angularVelocity: { turn.value(at: $0) }),
          sensor: sensor, seed: rng.next())
      }),
    StressCase(
      name: "bias-step",
      summary: "hand motion; the gyroscope bias steps by 1–1.5 °/s at 30 s",
      make: { seed in
        var rng = SeededGenerator(seed: seed)
        let (turn, push) = hand(&rng, rotation: 40, translation: 0.2)
        var sensor = dualSense(&rng)
        sensor.gyroscopeBiasStep = (30, rng.direction() * (rng.uniform(1...1.5) * .pi / 180))
        return SimulatedRecording(
          name: "bias-step",
          trajectory: Trajectory(
            duration: 90, start: tilted(&rng), angularVelocity: { turn.value(at: $0) },
            linearAcceleration: { push.value(at: $0) }),
          sensor: sensor, seed: rng.next())
      }),
    StressCase(
      name: "knock-at-rest",
      summary:
        "a device at rest knocked every 2–4 s (10 ms, 5–12 g, with a small jolt of rotation)",
      make: { seed in
        var rng = SeededGenerator(seed: seed)
        var knocks: [(time: Double, direction: Vector3, peak: Double, jolt: Vector3)] = []
        var t = 5.0
        while t < 55 {
          knocks.append(
            (t, rng.direction(), rng.uniform(5...12), rng.gaussianVector(60 * .pi / 180)))
          t += rng.uniform(2...4)
        }
        let all = knocks
        var sensor = wideRange(&rng)
        sensor.accelerometerRange = 16
        return SimulatedRecording(
          name: "knock-at-rest",
          trajectory: Trajectory(
            duration: 60, start: tilted(&rng),
            angularVelocity: { t in
              var w = Vector3.zero
              for k in all where t >= k.time && t < k.time + 0.02 {
                // A jolt that turns and turns back: no net rotation.
                w += k.jolt * sin(2 * .pi * (t - k.time) / 0.02)
              }
              return w
            },
            linearAcceleration: { t in
              var a = Vector3.zero
              for k in all where t >= k.time && t < k.time + 0.01 {
                a += k.direction * (k.peak * sin(.pi * (t - k.time) / 0.01))
              }
              return a
            }),
          sensor: sensor, seed: rng.next())
      }),
  ]

  /// A still device (its bias measured by the rest), picked up, shaken
  /// along one direction for 6 s (from 12 s) past the accelerometer's
  /// range, and put down again. Scored throughout.
  public static func clippedShake(
    seed: UInt64, range: Double, amplitude: ClosedRange<Double>, name: String
  ) -> SimulatedRecording {
    var rng = SeededGenerator(seed: seed)
    let (turn, _) = hand(&rng, rotation: 20, translation: 0)
    let shake = RandomMotion(
      along: rng.direction(), amplitude: rng.uniform(amplitude), frequency: rng.uniform(3...8))
    var sensor = dualSense(&rng)
    sensor.accelerometerRange = range
    return SimulatedRecording(
      name: name,
      trajectory: Trajectory(
        duration: 30, start: tilted(&rng),
        angularVelocity: { t in turn.value(at: t) * window(t, 8, 22, edge: 1) },
        linearAcceleration: { t in shake.value(at: t) * window(t, 12, 18, edge: 0.2) }),
      sensor: sensor, seed: rng.next())
  }

  public static func named(_ name: String) -> StressCase? { cases.first { $0.name == name } }
}

/// Inclination error scoring (../shared/data/README.md): the angle between
/// the estimated and the true vertical in the sensor frame.
public enum InclinationScore {
  /// Degrees between the up vectors (world z seen in the card frame) of two orientations.
  public static func error(_ estimate: Vector3, _ truth: Vector3) -> Double {
    atan2(estimate.cross(truth).length, estimate.dot(truth)) * 180 / .pi
  }

  /// Per-sample errors of an estimator over a recording, degrees (nil where unscored).
  public static func errors<E: AttitudeEstimator>(
    _ estimator: inout E, on recording: SimulatedRecording
  ) -> [Double?] {
    var up = Vector3(0, 0, 1)
    var out: [Double?] = []
    out.reserveCapacity(recording.samples.count)
    for i in recording.samples.indices {
      if let e = estimator.update(recording.samples[i]) { up = e.orientation.upVector }
      out.append(recording.scored[i] ? error(up, recording.truth[i].upVector) : nil)
    }
    return out
  }

  /// Root mean square of the errors over `range` of the times, degrees.
  public static func rmse(
    _ errors: [Double?], times: [Double],
    in range: Range<Double> = -Double.infinity..<Double.infinity
  ) -> Double {
    var sum = 0.0
    var n = 0
    for i in errors.indices where range.contains(times[i]) {
      guard let e = errors[i] else { continue }
      sum += e * e
      n += 1
    }
    return n == 0 ? 0 : (sum / Double(n)).squareRoot()
  }

  /// The root mean square error of every 10 s window (starting each
  /// second), in order: the windows that the worst-case criterion compares.
  public static func windows(_ errors: [Double?], times: [Double], length: Double = 10) -> [Double]
  {
    guard let first = times.first, let last = times.last else { return [] }
    var out: [Double] = []
    var start = first
    repeat {
      out.append(rmse(errors, times: times, in: start..<(start + length)))
      start += 1
    } while start + length <= last + 1e-9
    return out
  }
}
