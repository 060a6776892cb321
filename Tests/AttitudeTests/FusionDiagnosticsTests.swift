import Foundation
import Testing

@testable import Attitude

/// The fusion's two diagnostics, `expectedBiasDrift` (√d² of the time
/// constant's law) and `motionTimeConstant` (the τ the law gives), say what
/// their documentation says: the start's values, τ at its floor on a fast
/// turn and above τ₀ under a slow push, the drift shrinking once a rest has
/// measured the bias.
@Suite struct FusionDiagnosticsTests {
  static func imu() -> SyntheticIMU {
    return SyntheticIMU(
      rate: 200, start: Attitude(pitch: 0.1, roll: 0.2, yaw: 0).quaternion, seed: 7,
      gyroBias: Vector3(radians(0.3), radians(-0.2), radians(0.4)), gyroNoise: radians(0.1),
      accelNoise: 0.003)
  }

  @Test func startsAtTheStartConstants() {
    let fusion = GyroAccelFusion()
    let p = fusion.parameters
    #expect(fusion.motionTimeConstant == p.accelerometerTimeConstant)
    #expect(abs(fusion.expectedBiasDrift - p.maximumBias * 2.0.squareRoot()) < 1e-12)
  }

  /// A card turning at up to ~60°/s for 40 s: the law's rotation term
  /// holds τ at ``FusionParameters/minimumAccelerometerTimeConstant``.
  @Test func fastTurnHoldsTheTimeConstantAtItsFloor() {
    var imu = Self.imu()
    imu.move(for: 2)
    imu.move(for: 40) { t in
      Vector3(0.8 * sin(0.9 * t), 0.7 * sin(0.6 * t + 1), 0.5 * cos(0.45 * t))
    }
    var fusion = GyroAccelFusion()
    _ = run(&fusion, imu.samples)
    #expect(!fusion.isAtRest)
    #expect(
      abs(fusion.motionTimeConstant - fusion.parameters.minimumAccelerometerTimeConstant) < 1e-4)
  }

  /// A card at rest for 3 s (the rest measures the bias), then pushed back
  /// and forth (0.3 g at 0.25 Hz) while it barely turns: the push would leak
  /// through the low-pass, so τ lengthens past τ₀; and the drift the bias
  /// covariance expects is a small part of the start's.
  @Test func slowPushLengthensTheTimeConstantOnceTheBiasIsKnown() {
    var imu = Self.imu()
    imu.move(for: 3)
    imu.move(
      for: 60, omega: { t in Vector3(0.05 * sin(0.7 * t), 0.05 * cos(0.5 * t), 0) },
      linear: { t in Vector3(0.3 * sin(2 * .pi * 0.25 * t), 0, 0) })
    var fusion = GyroAccelFusion()
    let start = fusion.expectedBiasDrift
    _ = run(&fusion, imu.samples)
    #expect(fusion.biasEstimate.isConfirmedByRest)
    #expect(fusion.motionTimeConstant > fusion.parameters.accelerometerTimeConstant)
    #expect(fusion.expectedBiasDrift < start / 10)
  }
}
