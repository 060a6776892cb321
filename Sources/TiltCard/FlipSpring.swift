import Foundation

/// A critically damped spring for the flip angle, like SwiftUI's
/// `.smooth(duration: 0.7)`: natural frequency ω₀ = 2π / response.
///
/// Time is an argument, never read from a clock. With `a = x₀ − target` and
/// `b = v₀ + ω₀·a` at the start time, `x(τ) = target + (a + b·τ)·e^(−ω₀τ)`.
/// Retargeting keeps the angle and velocity of the moment, so a flip asked
/// for mid-turn reverses without a jump. From rest it never overshoots; the
/// angle is kept within 0…180 in any case.
public struct FlipSpring: Hashable, Sendable {
  /// Seconds; SwiftUI's `duration`.
  public let response: Double
  public private(set) var target: Double
  private var startTime: Double
  private var startAngle: Double
  private var startVelocity: Double

  /// Within this many degrees of the target and …
  public static let settledAngle = 0.01
  /// … slower than this many degrees per second, the spring is at rest.
  public static let settledVelocity = 0.1

  public init(angle: Double = 0, response: Double = 0.7) {
    self.response = response
    target = angle
    startTime = 0
    startAngle = angle
    startVelocity = 0
  }

  public var omega: Double { 2 * .pi / response }

  /// Starts toward `newTarget` (degrees) at `time` (seconds) from the angle and
  /// velocity of that moment.
  public mutating func retarget(_ newTarget: Double, at time: Double) {
    let (x, v) = state(at: time)
    startAngle = x
    startVelocity = v
    startTime = time
    target = newTarget
  }

  /// The angle (degrees) at `time`; exactly the target once at rest.
  public func angle(at time: Double) -> Double { state(at: time).angle }

  /// The velocity (degrees per second) at `time`.
  public func velocity(at time: Double) -> Double { state(at: time).velocity }

  public func isSettled(at time: Double) -> Bool { state(at: time).angle == target }

  private func state(at time: Double) -> (angle: Double, velocity: Double) {
    let tau = max(0, time - startTime)
    let a = startAngle - target
    let b = startVelocity + omega * a
    let decay = exp(-omega * tau)
    let x = target + (a + b * tau) * decay
    let v = (b - omega * (a + b * tau)) * decay
    if abs(x - target) < Self.settledAngle, abs(v) < Self.settledVelocity {
      return (target, 0)
    }
    if x < 0 { return (0, 0) }
    if x > 180 { return (180, 0) }
    return (x, v)
  }
}
