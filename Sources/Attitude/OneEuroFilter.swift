import Foundation

/// The One Euro filter (Casiez, Roussel, Vogel, "1€ Filter", CHI 2012) on
/// orientations: a low-pass whose cutoff rises with the angular speed, so
/// the output is still at rest and keeps up in fast turns.
///
/// Per step of `dt` seconds: the speed is the angle from the previous
/// output to the input over dt (rad/s), low-passed at `derivativeCutoff`;
/// the cutoff is `minCutoff + beta·speed` (Hz); the output slerps toward
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
  /// Low-passed angular speed, rad/s.
  public private(set) var speed = 0.0
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
      speed = 0
      return orientation
    }
    let dt = time - lastTime
    guard dt > 0 else { return previous }
    lastTime = time
    let rawSpeed = previous.angle(to: orientation) / dt
    speed += OneEuroFilter.alpha(cutoff: derivativeCutoff, interval: dt) * (rawSpeed - speed)
    let cutoff = minCutoff + beta * speed
    let next = previous.slerp(to: orientation, t: OneEuroFilter.alpha(cutoff: cutoff, interval: dt))
    value = next
    return next
  }

  public mutating func reset() {
    value = nil
    speed = 0
  }
}
