/// A first-order low-pass on orientations with time constant τ.
///
/// Each step slerps the output toward the input by `α = 1 − exp(−dt/τ)`,
/// so the response to a motion is the same at 60 Hz and at 1000 Hz and
/// with uneven timestamps. A repeated or earlier time (dt ≤ 0) leaves the
/// output where it is; τ ≤ 0 passes the input through.
public struct LowPassFilter: AttitudeFilter, Hashable, Sendable {
  /// Seconds.
  public let timeConstant: Double
  public private(set) var value: Quaternion?
  var lastTime = 0.0

  public init(timeConstant: Double) {
    self.timeConstant = timeConstant
  }

  public mutating func update(_ orientation: Quaternion, time: Double) -> Quaternion {
    guard let previous = value else {
      value = orientation
      lastTime = time
      return orientation
    }
    let dt = time - lastTime
    guard dt > 0 else { return previous }
    lastTime = time
    let alpha = SmoothingFactor.alpha(interval: dt, timeConstant: timeConstant)
    let next = previous.slerp(to: orientation, t: alpha)
    value = next
    return next
  }

  public mutating func reset() {
    value = nil
  }
}
