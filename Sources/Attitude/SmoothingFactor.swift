import Foundation

/// The weight `α = 1 − exp(−dt/τ)` of a first-order low-pass with time
/// constant `τ` over a step of `dt` seconds.
///
/// Using `α` this way makes the filter independent of the sample rate: n
/// steps of dt/n move the state as far as one step of dt. Steps far shorter
/// than τ (every sample of an IMU) use a Taylor series instead of `exp`.
public struct SmoothingFactor: Sendable {
  /// 1/τ in 1/s; infinity for τ ≤ 0, which means no filtering (α = 1).
  public let rate: Double

  public init(timeConstant: Double) {
    rate = timeConstant > 0 ? 1 / timeConstant : .infinity
  }

  /// α for a step of `dt` ≥ 0 seconds.
  @inlinable @inline(__always)
  public func alpha(for dt: Double) -> Double {
    let x = dt * rate
    if x < 0.01 {
      // 1 − e^−x = x − x²/2 + x³/6 − x⁴/24 + …; the rest is below 1e-12·x.
      return x * (1 - x * (0.5 - x * (1.0 / 6 - x * (1.0 / 24))))
    }
    return x.isFinite ? -expm1(-x) : 1
  }

  /// α for a step of `dt` seconds and time constant `tau`.
  @inlinable
  public static func alpha(interval dt: Double, timeConstant tau: Double) -> Double {
    SmoothingFactor(timeConstant: tau).alpha(for: dt)
  }
}
