import Attitude
import Foundation

import var SensorData.standardGravity

/// Cases made to break the fusion on motion the stress suite does not have,
/// the way a user will: out-of-sample checks, never tuned on, and not part
/// of `StressSuite` (whose definition the done-when rule names).
public enum AdversarialCases {
  /// The body-frame rate of a turn about the world vertical, for a device
  /// whose orientation is `start` before the turn: constant while only that
  /// turn goes on, since the vertical seen from the card does not change.
  static func vertical(_ start: Quaternion) -> Vector3 { start.conjugate.rotate(Vector3(0, 0, 1)) }

  /// A unit vector perpendicular to `v`.
  static func perpendicular(to v: Vector3, _ rng: inout SeededGenerator) -> Vector3 {
    while true {
      if let p = v.cross(rng.direction()).normalized { return p }
    }
  }

  public static let cases: [StressCase] = [
    StressCase(
      name: "turntable",
      summary:
        "5 s still, 60 s of a steady 5–30 °/s turn about the vertical, stop, a 30–60° tilt in 2 s, 20 s still",
      make: { seed in
        var rng = SeededGenerator(seed: seed)
        let start = StressSuite.tilted(&rng)
        let up = vertical(start)
        let rate = rng.uniform(5...30) * .pi / 180
        let tiltAxis = perpendicular(to: up, &rng)
        let tiltRate = rng.uniform(30...60) * .pi / 180 / 2
        return SimulatedRecording(
          name: "turntable",
          trajectory: Trajectory(
            duration: 89, start: start,
            angularVelocity: { t in
              up * (rate * window(t, 5, 65, edge: 0.5)) + tiltAxis
                * (t >= 67 && t < 69 ? tiltRate : 0)
            }),
          sensor: StressSuite.dualSense(&rng), seed: rng.next())
      }),
    StressCase(
      name: "face-down",
      summary: "the card upside down (gravity along −z, within 0.3 rad), 60 s of hand motion",
      make: { seed in
        handMotion(seed: seed, name: "face-down") { _ in
          Quaternion(axis: Vector3(1, 0, 0), angle: .pi)
        }
      }),
    StressCase(
      name: "on-edge",
      summary: "the card on its edge (gravity along ±x, within 0.3 rad), 60 s of hand motion",
      make: { seed in
        handMotion(seed: seed, name: "on-edge") { rng in
          let side = rng.uniform(0...1) < 0.5 ? 1.0 : -1.0
          return Quaternion(axis: Vector3(0, 1, 0), angle: side * .pi / 2)
        }
      }),
    StressCase(
      name: "long-rest-then-fast",
      summary: "2 min still, then 20 s of fast motion (250 °/s, 1 g), then 10 s still",
      make: { seed in
        var rng = SeededGenerator(seed: seed)
        let turn = RandomMotion(
          rms: rng.uniform(220...280) * .pi / 180, frequencies: 0.5...2, using: &rng)
        let push = RandomMotion(rms: rng.uniform(0.8...1.2), frequencies: 1...4, using: &rng)
        return SimulatedRecording(
          name: "long-rest-then-fast",
          trajectory: Trajectory(
            duration: 150, start: StressSuite.tilted(&rng),
            angularVelocity: { t in turn.value(at: t) * window(t, 120, 140, edge: 0.1) },
            linearAcceleration: { t in push.value(at: t) * window(t, 120, 140, edge: 0.1) }),
          sensor: StressSuite.wideRange(&rng), seed: rng.next())
      }),
    StressCase(
      name: "jitter-100hz",
      summary:
        "a 100 Hz device stamped 0–8 ms late (uniform: a reader that stamps on arrival), 60 s of hand motion",
      make: { seed in hundredHertz(seed: seed, name: "jitter-100hz", latency: 0.008, gaps: false) }),
    StressCase(
      name: "dropouts-100hz",
      summary: "a 100 Hz device dropping 50–300 ms of samples every 1–5 s, 60 s of hand motion",
      make: { seed in hundredHertz(seed: seed, name: "dropouts-100hz", latency: 0, gaps: true) }),
    StressCase(
      name: "gyro-scale-3pct",
      summary:
        "a 3 % scale error on one gyroscope axis, 60 s of fast turns (200 °/s) after 5 s still",
      make: { seed in
        var rng = SeededGenerator(seed: seed)
        let (turn, push) = StressSuite.hand(&rng, rotation: 200, translation: 0.3)
        var sensor = StressSuite.wideRange(&rng)
        let axis = Int(rng.next() % 3)
        sensor.gyroscopeScaleError = Vector3(
          axis == 0 ? 0.03 : 0, axis == 1 ? 0.03 : 0, axis == 2 ? 0.03 : 0)
        return SimulatedRecording(
          name: "gyro-scale-3pct",
          trajectory: Trajectory(
            duration: 65, start: StressSuite.tilted(&rng),
            angularVelocity: { t in turn.value(at: t) * window(t, 5, 65) },
            linearAcceleration: { t in push.value(at: t) * window(t, 5, 65) }),
          sensor: sensor, seed: rng.next())
      }),
    StressCase(
      name: "bias-ramp",
      summary:
        "5 s still, then 2 min of hand motion while the gyroscope bias ramps by 1.5–3 °/s (warming up)",
      make: { seed in biasRamp(seed: seed, name: "bias-ramp", change: 1.5...3) }),
    StressCase(
      name: "bias-ramp-mild",
      summary: "bias-ramp with a change of 0.3–0.6 °/s over the 2 min",
      make: { seed in biasRamp(seed: seed, name: "bias-ramp-mild", change: 0.3...0.6) }),
    StressCase(
      name: "walk",
      summary:
        "5 s still, then 90 s of a walk: 2 Hz vertical bounce of 0.3 g, 1 Hz sway of 0.05 g, a slow turn about the vertical, a 2 Hz wobble",
      make: { seed in
        var rng = SeededGenerator(seed: seed)
        let start = StressSuite.tilted(&rng)
        let up = vertical(start)
        let heading = RandomMotion(
          along: Vector3(1, 0, 0), amplitude: rng.uniform(10...20) * .pi / 180,
          frequency: rng.uniform(0.02...0.05))
        let wobble = RandomMotion(
          along: rng.direction(), amplitude: rng.uniform(3...6) * .pi / 180, frequency: 2)
        let sway = RandomMotion(
          along: perpendicular(to: Vector3(0, 0, 1), &rng), amplitude: 0.05, frequency: 1)
        let phase = rng.uniform(0...(2 * .pi))
        return SimulatedRecording(
          name: "walk",
          trajectory: Trajectory(
            duration: 95, start: start,
            angularVelocity: { t in
              (up * heading.value(at: t).x + wobble.value(at: t)) * window(t, 5, 95)
            },
            linearAcceleration: { t in
              (Vector3(0, 0, 0.3 * sin(2 * .pi * 2 * t + phase)) + sway.value(at: t))
                * window(t, 5, 95)
            }),
          sensor: StressSuite.dualSense(&rng), seed: rng.next())
      }),
    StressCase(
      name: "car",
      summary:
        "a device mounted in a car for 2 min: corners of 10–25 °/s at 10–20 m/s (0.2–0.9 g sideways for 4–10 s), braking, 15 Hz vibration",
      make: { seed in
        var rng = SeededGenerator(seed: seed)
        let start = StressSuite.tilted(&rng)
        let up = vertical(start)
        var corners: [(start: Double, end: Double, rate: Double, speed: Double)] = []
        var t = rng.uniform(5...10)
        while t < 110 {
          let length = rng.uniform(4...10)
          let rate = rng.uniform(10...25) * .pi / 180 * (rng.uniform(0...1) < 0.5 ? 1 : -1)
          corners.append((t, t + length, rate, rng.uniform(10...20)))
          t += length + rng.uniform(3...10)
        }
        let all = corners
        let braking = rng.uniform(0.2...0.4)
        let vibration = RandomMotion(rms: 0.05, frequencies: 12...18, using: &rng)
        @Sendable func yawRate(_ t: Double) -> (rate: Double, speed: Double) {
          for c in all where t > c.start && t < c.end {
            return (c.rate * window(t, c.start, c.end, edge: 1), c.speed)
          }
          return (0, 15)
        }
        // The heading, integrated once on a 1 ms grid (the corners' rates are smooth).
        let step = 0.001
        var heading = [0.0]
        heading.reserveCapacity(121_000)
        for k in 0..<121_000 {
          heading.append(heading[k] + yawRate((Double(k) + 0.5) * step).rate * step)
        }
        let headings = heading
        return SimulatedRecording(
          name: "car",
          trajectory: Trajectory(
            duration: 120, start: start,
            angularVelocity: { t in up * yawRate(t).rate },
            linearAcceleration: { t in
              let (rate, speed) = yawRate(t)
              let psi = headings[min(headings.count - 1, Int(t / step))]
              let left = Vector3(-sin(psi), cos(psi), 0)
              let forward = Vector3(cos(psi), sin(psi), 0)
              // Centripetal v·ω towards the turn's centre, braking before each corner.
              var a = left * (speed * rate / SensorData.standardGravity)
              for c in all where t > c.start - 4 && t < c.start {
                a += forward * (-braking * window(t, c.start - 4, c.start, edge: 1))
              }
              return a + vibration.value(at: t)
            }),
          sensor: StressSuite.dualSense(&rng), seed: rng.next())
      }),
    StressCase(
      name: "slow-tilt",
      summary:
        "10 s still, then 100 s of a slow rocking tilt about a horizontal axis (0.3–1.5 °/s peak, period 40–80 s)",
      make: { seed in
        var rng = SeededGenerator(seed: seed)
        let start = StressSuite.tilted(&rng)
        let axis = perpendicular(to: vertical(start), &rng)
        let rocking = RandomMotion(
          along: axis, amplitude: rng.uniform(0.3...1.5) * .pi / 180,
          frequency: 1 / rng.uniform(40...80))
        return SimulatedRecording(
          name: "slow-tilt",
          trajectory: Trajectory(
            duration: 110, start: start,
            angularVelocity: { t in rocking.value(at: t) * window(t, 10, 110, edge: 2) }),
          sensor: StressSuite.dualSense(&rng), seed: rng.next())
      }),
  ]

  /// 5 s still, then 2 min of hand motion while the gyroscope's bias
  /// changes steadily by `change` °/s in all (a sensor warming up).
  static func biasRamp(seed: UInt64, name: String, change: ClosedRange<Double>)
    -> SimulatedRecording
  {
    var rng = SeededGenerator(seed: seed)
    let (turn, push) = StressSuite.hand(&rng, rotation: 40, translation: 0.2)
    let ramp = rng.direction() * (rng.uniform(change) * .pi / 180 / 120)
    let recording = SimulatedRecording(
      name: name,
      trajectory: Trajectory(
        duration: 125, start: StressSuite.tilted(&rng),
        angularVelocity: { t in turn.value(at: t) * window(t, 5, 125) },
        linearAcceleration: { t in push.value(at: t) * window(t, 5, 125) }),
      sensor: StressSuite.dualSense(&rng), seed: rng.next())
    return addingGyroscopeDrift(recording) { t in ramp * max(0, t - 5) }
  }

  /// A 100 Hz device (a cheap IMU, or a reader that stamps late) under 60 s
  /// of hand motion after 3 s still: each stamp late by up to `latency` s
  /// (uniform; less than a period, so stamps keep their order and their mean
  /// interval), and with `gaps`, 50–300 ms of samples dropped every 1–5 s.
  static func hundredHertz(seed: UInt64, name: String, latency: Double, gaps withGaps: Bool)
    -> SimulatedRecording
  {
    var rng = SeededGenerator(seed: seed)
    let (turn, push) = StressSuite.hand(&rng, rotation: 60, translation: 0.3)
    var sensor = StressSuite.dualSense(&rng)
    sensor.rate = 100
    var gaps: [Range<Double>] = []
    var t = rng.uniform(1...5)
    while t < 60 {
      let length = rng.uniform(0.05...0.3)
      gaps.append(t..<(t + length))
      t += length + rng.uniform(1...5)
    }
    var recording = SimulatedRecording(
      name: name,
      trajectory: Trajectory(
        duration: 60, start: StressSuite.tilted(&rng),
        angularVelocity: { t in turn.value(at: t) * window(t, 3, 60) },
        linearAcceleration: { t in push.value(at: t) * window(t, 3, 60) }),
      sensor: sensor, seed: rng.next())
    let resolution = sensor.timestampResolution
    for i in recording.samples.indices where latency > 0 {
      let late = recording.samples[i].time + rng.uniform(0...latency)
      recording.samples[i].time = (late / resolution).rounded() * resolution
    }
    return withGaps ? dropping(recording, inside: gaps) : recording
  }

  /// The recording without the samples whose stamps fall inside `gaps`: a
  /// device or a reader that drops reports.
  static func dropping(_ recording: SimulatedRecording, inside gaps: [Range<Double>])
    -> SimulatedRecording
  {
    var out = recording
    let kept = recording.samples.indices.filter { i in
      !gaps.contains { $0.contains(recording.samples[i].time) }
    }
    out.samples = kept.map { recording.samples[$0] }
    out.truth = kept.map { recording.truth[$0] }
    out.positions = kept.map { recording.positions[$0] }
    out.scored = kept.map { recording.scored[$0] }
    return out
  }

  /// The recording with `drift(t)` (rad/s) added to every gyroscope reading,
  /// kept to the sensor's resolution: a bias that changes with temperature.
  static func addingGyroscopeDrift(
    _ recording: SimulatedRecording, _ drift: (Double) -> Vector3
  ) -> SimulatedRecording {
    var out = recording
    let resolution = recording.sensor.gyroscopeResolution
    func quantized(_ x: Double) -> Double {
      resolution > 0 ? (x / resolution).rounded() * resolution : x
    }
    for i in out.samples.indices {
      guard let w = out.samples[i].rotationRate else { continue }
      let d = w + drift(out.samples[i].time)
      out.samples[i].rotationRate = Vector3(quantized(d.x), quantized(d.y), quantized(d.z))
    }
    return out
  }

  /// 60 s of hand motion (40 °/s, 0.2 g) from `base` turned by up to 0.3 rad
  /// about a random axis.
  static func handMotion(
    seed: UInt64, name: String, base: (inout SeededGenerator) -> Quaternion
  ) -> SimulatedRecording {
    var rng = SeededGenerator(seed: seed)
    let (turn, push) = StressSuite.hand(&rng, rotation: 40, translation: 0.2)
    let start = base(&rng)
    let tilted = Quaternion(axis: rng.direction(), angle: rng.uniform(0...0.3)) * start
    return SimulatedRecording(
      name: name,
      trajectory: Trajectory(
        duration: 60, start: tilted,
        angularVelocity: { t in turn.value(at: t) * window(t, 3, 60) },
        linearAcceleration: { t in push.value(at: t) * window(t, 3, 60) }),
      sensor: StressSuite.wideRange(&rng), seed: rng.next())
  }

  public static func named(_ name: String) -> StressCase? { cases.first { $0.name == name } }
}
