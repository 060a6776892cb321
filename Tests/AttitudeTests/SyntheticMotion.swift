import Foundation

@testable import Attitude

/// A small deterministic generator (SplitMix64), so tests are repeatable.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  /// A normally distributed number (Box–Muller).
  mutating func gaussian(_ sigma: Double) -> Double {
    let u = Double.random(in: Double.ulpOfOne..<1, using: &self)
    let v = Double.random(in: 0..<1, using: &self)
    return sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
  }
  mutating func gaussianVector(_ sigma: Double) -> Vector3 {
    Vector3(gaussian(sigma), gaussian(sigma), gaussian(sigma))
  }
}

/// An IMU moving along a known trajectory: the true orientation (card →
/// world) is integrated finely from the angular velocity, and each sample
/// carries what a sensor would read, with optional bias and noise.
struct SyntheticIMU {
  var rate: Double
  var orientation: Quaternion
  var time = 0.0
  var gyroBias = Vector3.zero
  /// Relative scale error of each gyroscope axis (0.01: reads 1 % high).
  var gyroScaleError = Vector3.zero
  var gyroNoise = 0.0
  var accelNoise = 0.0
  var rng = SeededGenerator(seed: 1)
  /// Every sample, with the true orientation at its time.
  var samples: [MotionSample] = []
  var truth: [Quaternion] = []

  init(
    rate: Double, start: Quaternion = .identity, seed: UInt64 = 1, gyroBias: Vector3 = .zero,
    gyroNoise: Double = 0, accelNoise: Double = 0
  ) {
    self.rate = rate
    orientation = start
    rng = SeededGenerator(seed: seed)
    self.gyroBias = gyroBias
    self.gyroNoise = gyroNoise
    self.accelNoise = accelNoise
  }

  /// Moves for `duration` seconds with the body-frame angular velocity
  /// `omega(t)` (rad/s) and the extra world-frame acceleration
  /// `linear(t)` (g), sampling at `rate`.
  mutating func move(
    for duration: Double, omega: (Double) -> Vector3 = { _ in .zero },
    linear: (Double) -> Vector3 = { _ in .zero }, hasGyroscope: Bool = true
  ) {
    let steps = Int((duration * rate).rounded())
    let dt = 1 / rate
    for _ in 0..<steps {
      // Integrate the truth in 10 sub-steps (midpoint rate).
      for k in 0..<10 {
        let t = time + (Double(k) + 0.5) * dt / 10
        orientation = (orientation * Quaternion(rotationVector: omega(t) * (dt / 10))).normalized
      }
      time += dt
      let specificForceWorld = Vector3(0, 0, 1) + linear(time)
      let accel = orientation.conjugate.rotate(specificForceWorld) + rng.gaussianVector(accelNoise)
      let w = omega(time)
      let scaled = Vector3(
        w.x * (1 + gyroScaleError.x), w.y * (1 + gyroScaleError.y), w.z * (1 + gyroScaleError.z))
      let gyro = scaled + gyroBias + rng.gaussianVector(gyroNoise)
      samples.append(
        MotionSample(time: time, acceleration: accel, rotationRate: hasGyroscope ? gyro : nil))
      truth.append(orientation)
    }
  }
}

/// Degrees between the world up vectors seen by two orientations (card → world).
func inclinationError(_ a: Quaternion, _ b: Quaternion) -> Double {
  let u = a.upVector
  let v = b.upVector
  return atan2(u.cross(v).length, u.dot(v)) * 180 / .pi
}

func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

/// Runs an estimator over samples and returns its last estimate.
func run<E: AttitudeEstimator>(_ estimator: inout E, _ samples: [MotionSample]) -> AttitudeEstimate?
{
  var last: AttitudeEstimate?
  for s in samples { if let e = estimator.update(s) { last = e } }
  return last
}
