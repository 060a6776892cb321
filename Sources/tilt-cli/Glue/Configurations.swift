import Attitude
import TiltCard

extension PipelineOptions {
  /// The estimator and filter that `--fusion`, `--filter` and `--reference` ask for.
  var motionConfiguration: MotionConfiguration {
    var c = MotionConfiguration()
    c.fusion = FusionMode(rawValue: fusion.rawValue)!
    c.reference = ReferenceMode(rawValue: reference.rawValue)!
    switch filter {
    case .none: c.filter = .none
    case .lowpass: c.filter = .lowpass(tau: tau)
    case .oneeuro:
      c.filter = .oneEuro(
        minCutoff: minCutoff, beta: beta, derivativeCutoff: Self.oneEuroDerivativeCutoff)
    }
    return c
  }

  /// The One Euro filter's cutoff for the turn rate, Hz: the library's default.
  static var oneEuroDerivativeCutoff: Double {
    if case .oneEuro(_, _, let cutoff) = MotionConfiguration.defaultFilter { return cutoff }
    return 1
  }

  /// The card that the pose, flip and lifecycle options describe.
  var cardConfiguration: CardConfiguration {
    var c = CardConfiguration()
    c.gain = gain
    c.maxTilt = maxTilt
    c.perspective = perspective
    c.width = cardWidth
    c.height = cardHeight
    c.flipStyle = flipStyle == .spring ? .spring : .twoPhase
    c.reduceMotion = reduceMotion
    c.flipTrigger = FlipTrigger(rawValue: flipOn.rawValue)!
    c.idleStop = idleStop
    return c
  }
}
