import Foundation

/// The One Euro filter (Casiez, Roussel, Vogel, "1€ Filter", CHI 2012) on
/// orientations: a low-pass whose cutoff rises with the angular speed, so
/// the output is still at rest and keeps up in fast turns.
///
/// Per step of `dt` seconds: the angular velocity (a vector, rad/s) is the
/// rotation from the previous output to the input over dt, low-passed at
/// `derivativeCutoff` (as a vector, so that noise averages out as the
/// signed derivative does in the paper); the speed is its length and the
/// cutoff is `minCutoff + beta·speed` (Hz); the output slerps toward
/// the input by `α = 1 / (1 + 1/(2π·cutoff·dt))`, the paper's smoothing
/// factor. A repeated or earlier time leaves the output where it is.
public struct OneEuroFilter: AttitudeFilter, Hashable, Sendable {
  /// Hz.
  public let minCutoff: Double
  /// Hz per rad/s.
  public let beta: Double
  /// Hz.
  public let derivativeCutoff: Double

  public private(set) var value: Quaternion?
  /// Low-passed angular velocity, rad/s, in the frame of the output.
  public private(set) var velocity = Vector3.zero
  var lastTime = 0.0

  public init(minCutoff: Double, beta: Double, derivativeCutoff: Double) {
    self.minCutoff = minCutoff
    self.beta = beta
    self.derivativeCutoff = derivativeCutoff
  }

  /// The paper's smoothing factor for a cutoff in Hz and a step in seconds.
  public static func alpha(cutoff: Double, interval dt: Double) -> Double {
    guard cutoff > 0 else { return 0 }
    let tau = 1 / (2 * Double.pi * cutoff)
    return 1 / (1 + tau / dt)
  }

  public mutating func update(_ orientation: Quaternion, time: Double) -> Quaternion {
    guard let previous = value else {
      value = orientation
      lastTime = time
      velocity = .zero
      return orientation
    }
    let dt = time - lastTime
    guard dt > 0 else { return previous }
    lastTime = time
    let rawVelocity = (previous.conjugate * orientation).rotationVector / dt
    velocity +=
      OneEuroFilter.alpha(cutoff: derivativeCutoff, interval: dt) * (rawVelocity - velocity)
    let cutoff = minCutoff + beta * velocity.length
    let next = previous.slerp(to: orientation, t: OneEuroFilter.alpha(cutoff: cutoff, interval: dt))
    value = next
    return next
  }

  public mutating func reset() {
    value = nil
    velocity = .zero
  }
}
