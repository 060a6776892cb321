/// The older flip: two linear halves of 0.3 s each.
///
/// The original turns the first face from 0° to edge-on (90°), then the second
/// face in from −90° to 0°. The back is drawn pre-turned by 180° here (see
/// ``CardGeometry``), so its own angle θ reads as a flip angle of 180° + θ:
/// the second half runs 90° → 180°. `flipAngle` therefore moves linearly at
/// 300°/s from 0 to 180 (0.3 s to 90°, 0.3 s more to 180°); which face shows
/// is decided by the geometry, tilt included. Retargeting mid-turn goes back
/// from the current angle at the same speed.
public struct TwoPhaseFlip: Hashable, Sendable {
  /// Seconds for each half.
  public let halfDuration: Double
  public private(set) var target: Double
  private var startTime: Double
  private var startAngle: Double

  public init(angle: Double = 0, halfDuration: Double = 0.3) {
    self.halfDuration = halfDuration
    target = angle
    startTime = 0
    startAngle = angle
  }

  /// Degrees per second.
  public var speed: Double { 90 / halfDuration }

  public mutating func retarget(_ newTarget: Double, at time: Double) {
    startAngle = angle(at: time)
    startTime = time
    target = newTarget
  }

  public func angle(at time: Double) -> Double {
    let travelled = speed * max(0, time - startTime)
    let remaining = target - startAngle
    if abs(remaining) <= travelled { return target }
    return startAngle + (remaining > 0 ? travelled : -travelled)
  }

  public func velocity(at time: Double) -> Double {
    guard !isSettled(at: time) else { return 0 }
    return target > startAngle ? speed : -speed
  }

  public func isSettled(at time: Double) -> Bool { angle(at: time) == target }
}
