/// The flip angle over time in the configured style: a spring, two linear
/// halves, or (reduce motion) a jump.
public struct FlipAnimator: Hashable, Sendable {
  private enum Motion: Hashable, Sendable {
    case spring(FlipSpring)
    case twoPhase(TwoPhaseFlip)
    case jump(Double)
  }

  private var motion: Motion

  public init(configuration: CardConfiguration, angle: Double = 0) {
    if configuration.reduceMotion {
      motion = .jump(angle)
    } else {
      switch configuration.flipStyle {
      case .spring: motion = .spring(FlipSpring(angle: angle))
      case .twoPhase: motion = .twoPhase(TwoPhaseFlip(angle: angle))
      }
    }
  }

  public var target: Double {
    switch motion {
    case .spring(let s): return s.target
    case .twoPhase(let p): return p.target
    case .jump(let a): return a
    }
  }

  /// Turns toward `target` degrees (0 or 180) from `time` on.
  public mutating func retarget(_ target: Double, at time: Double) {
    switch motion {
    case .spring(var s):
      s.retarget(target, at: time)
      motion = .spring(s)
    case .twoPhase(var p):
      p.retarget(target, at: time)
      motion = .twoPhase(p)
    case .jump:
      motion = .jump(target)
    }
  }

  /// Degrees at `time`.
  public func angle(at time: Double) -> Double {
    switch motion {
    case .spring(let s): return s.angle(at: time)
    case .twoPhase(let p): return p.angle(at: time)
    case .jump(let a): return a
    }
  }

  public func isSettled(at time: Double) -> Bool { angle(at: time) == target }
}
