import Attitude
import Foundation

import enum SensorData.CSVColumns
import var SensorData.standardGravity

/// A small deterministic generator (SplitMix64): the same seed gives the same samples.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  public var state: UInt64
  public init(seed: UInt64) { state = seed }
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  /// A normally distributed number with standard deviation `sigma` (Box–Muller).
  public mutating func gaussian(_ sigma: Double) -> Double {
    let u = Double.random(in: Double.ulpOfOne..<1, using: &self)
    let v = Double.random(in: 0..<1, using: &self)
    return sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
  }
  public mutating func gaussianVector(_ sigma: Double) -> Vector3 {
    Vector3(gaussian(sigma), gaussian(sigma), gaussian(sigma))
  }
  public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    Double.random(in: range, using: &self)
  }
  /// A direction drawn uniformly on the unit sphere.
  public mutating func direction() -> Vector3 {
    while true {
      let v = gaussianVector(1)
      if let n = v.normalized { return n }
    }
  }
}

/// A rigid body's motion: the body-frame angular velocity (rad/s) and the
/// world-frame linear acceleration (g, world z up) as functions of time (s),
/// from a start orientation (card → world).
public struct Trajectory: Sendable {
  public var duration: Double
  public var start: Quaternion
  public var angularVelocity: @Sendable (Double) -> Vector3
  public var linearAcceleration: @Sendable (Double) -> Vector3
  /// Whether the benchmark scores the sample at this time (BROAD's `movement`).
  public var scored: @Sendable (Double) -> Bool

  public init(
    duration: Double, start: Quaternion = .identity,
    angularVelocity: @escaping @Sendable (Double) -> Vector3 = { _ in .zero },
    linearAcceleration: @escaping @Sendable (Double) -> Vector3 = { _ in .zero },
    scored: @escaping @Sendable (Double) -> Bool = { _ in true }
  ) {
    self.duration = duration
    self.start = start
    self.angularVelocity = angularVelocity
    self.linearAcceleration = linearAcceleration
    self.scored = scored
  }
}

/// What a device does to the truth: the errors, range and clock of its
/// gyroscope and accelerometer. Units: g, rad/s, seconds.
public struct SensorModel: Sendable {
  /// Nominal sampling rate, Hz.
  public var rate: Double = 250
  /// Standard deviation of each sampling instant around its nominal time, s.
  public var samplingJitter: Double = 0
  /// Standard deviation of the reported stamp around the sampling instant, s.
  public var timestampJitter: Double = 0
  /// Resolution of the reported stamp, s (MSC_TIMESTAMP: 1 µs).
  public var timestampResolution: Double = 1e-6
  /// White noise per sample, per axis.
  public var accelerometerNoise: Double = 0.004
  public var gyroscopeNoise: Double = 0.1 * .pi / 180
  /// Constant offsets, per axis.
  public var accelerometerBias: Vector3 = .zero
  public var gyroscopeBias: Vector3 = .zero
  /// A change of the gyroscope bias: from `time` on, the bias is `gyroscopeBias + step`.
  public var gyroscopeBiasStep: (time: Double, step: Vector3)?
  /// Relative scale errors per axis (0.01 reads 1 % high).
  public var accelerometerScaleError: Vector3 = .zero
  public var gyroscopeScaleError: Vector3 = .zero
  /// Value of one count; 0 leaves readings continuous. DualSense: 1/8192 g, 1/1024 °/s.
  public var accelerometerResolution: Double = 1.0 / 8192
  public var gyroscopeResolution: Double = (1.0 / 1024) * .pi / 180
  /// Largest magnitude each axis reads (absinfo's maximum); readings beyond clip to it.
  public var accelerometerRange: Double = 16
  public var gyroscopeRange: Double = 2000 * .pi / 180

  public init() {}
}

/// Samples as a device reports them, with the truth at each.
public struct SimulatedRecording: Sendable {
  public var name: String
  public var samples: [MotionSample] = []
  /// The true orientation (card → world) at each sample.
  public var truth: [Quaternion] = []
  /// The true position, m, world frame.
  public var positions: [Vector3] = []
  public var scored: [Bool] = []
  public var sensor: SensorModel

  /// Standard gravity, m/s²: SensorData's `standardGravity`.
  @available(*, deprecated, message: "use SensorData's standardGravity")
  public static var standardGravity: Double { SensorData.standardGravity }

  /// Simulates `trajectory` through `sensor`, noise drawn from `seed`.
  public init(name: String, trajectory: Trajectory, sensor: SensorModel, seed: UInt64) {
    self.name = name
    self.sensor = sensor
    var rng = SeededGenerator(seed: seed)
    let dt = 1 / sensor.rate
    let count = Int((trajectory.duration * sensor.rate).rounded())
    var orientation = trajectory.start
    var velocity = Vector3.zero
    var position = Vector3.zero
    var trueTime = 0.0
    samples.reserveCapacity(count)
    for k in 0..<count {
      let nominal = Double(k) * dt
      // Jitter of at most ±0.4 of a step, so instants keep their order.
      let instant =
        nominal + max(-0.4, min(0.4, rng.gaussian(sensor.samplingJitter * sensor.rate))) * dt
      let target = k == 0 ? 0 : max(instant, trueTime)
      // Integrate the truth finely (midpoint rule, sub-steps of at most 0.5 ms).
      let span = target - trueTime
      let steps = max(1, Int((span / 0.0005).rounded(.up)))
      let h = span / Double(steps)
      if span > 0 {
        for s in 0..<steps {
          let t = trueTime + (Double(s) + 0.5) * h
          orientation =
            (orientation * Quaternion(rotationVector: trajectory.angularVelocity(t) * h))
            .normalized
          let a = trajectory.linearAcceleration(t) * SensorData.standardGravity
          position += velocity * h + a * (0.5 * h * h)
          velocity += a * h
        }
      }
      trueTime = target
      let omega = trajectory.angularVelocity(trueTime)
      let force = orientation.conjugate.rotate(
        Vector3(0, 0, 1) + trajectory.linearAcceleration(trueTime))
      var gyroBias = sensor.gyroscopeBias
      if let step = sensor.gyroscopeBiasStep, trueTime >= step.time { gyroBias += step.step }
      let gyro = Self.read(
        omega, scale: sensor.gyroscopeScaleError, bias: gyroBias,
        noise: rng.gaussianVector(sensor.gyroscopeNoise), resolution: sensor.gyroscopeResolution,
        range: sensor.gyroscopeRange)
      let accel = Self.read(
        force, scale: sensor.accelerometerScaleError, bias: sensor.accelerometerBias,
        noise: rng.gaussianVector(sensor.accelerometerNoise),
        resolution: sensor.accelerometerResolution, range: sensor.accelerometerRange)
      var stamp = trueTime + rng.gaussian(sensor.timestampJitter)
      if sensor.timestampResolution > 0 {
        stamp = (stamp / sensor.timestampResolution).rounded() * sensor.timestampResolution
      }
      if let last = samples.last?.time, stamp <= last { stamp = last + sensor.timestampResolution }
      samples.append(MotionSample(time: stamp, acceleration: accel, rotationRate: gyro))
      truth.append(orientation)
      positions.append(position)
      scored.append(trajectory.scored(trueTime))
    }
  }

  static func read(
    _ v: Vector3, scale: Vector3, bias: Vector3, noise: Vector3, resolution: Double, range: Double
  ) -> Vector3 {
    func axis(_ x: Double, _ s: Double, _ b: Double, _ n: Double) -> Double {
      var r = x * (1 + s) + b + n
      if resolution > 0 { r = (r / resolution).rounded() * resolution }
      return min(max(r, -range), range)
    }
    return Vector3(
      axis(v.x, scale.x, bias.x, noise.x), axis(v.y, scale.y, bias.y, noise.y),
      axis(v.z, scale.z, bias.z, noise.z))
  }

  /// The recording in BROAD's CSV format (../shared/data/README.md): `t_s`,
  /// `gyr_{x,y,z}_rad_s`, `acc_{x,y,z}_m_s2`, `mag_{x,y,z}_uT` (zero: no
  /// magnetometer), `movement`, `opt_q{w,x,y,z}` (sensor → earth, scalar
  /// first), `opt_pos_{x,y,z}_m`. Doubles are written so they read back exactly.
  public func broadCSV() -> String {
    let columns =
      [CSVColumns.time] + CSVColumns.gyroscopeRadiansPerSecond.names
      + CSVColumns.accelerometerMetresPerSecondSquared.names
      + ["mag_x_uT", "mag_y_uT", "mag_z_uT", CSVColumns.movement] + CSVColumns.groundTruth
      + ["opt_pos_x_m", "opt_pos_y_m", "opt_pos_z_m"]
    var text = columns.joined(separator: ",") + "\n"
    text.reserveCapacity(samples.count * 300)
    let g = SensorData.standardGravity
    for i in samples.indices {
      let s = samples[i]
      let w = s.rotationRate ?? .zero
      let a = s.acceleration * g
      let q = truth[i]
      let p = positions[i]
      text +=
        "\(s.time),\(w.x),\(w.y),\(w.z),\(a.x),\(a.y),\(a.z),0,0,0,\(scored[i] ? 1 : 0),"
        + "\(q.w),\(q.x),\(q.y),\(q.z),\(p.x),\(p.y),\(p.z)\n"
    }
    return text
  }
}
