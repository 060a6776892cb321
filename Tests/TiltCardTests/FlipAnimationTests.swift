import Testing

@testable import TiltCard

@Suite struct FlipSpringTests {
  @Test func matchesSmoothDuration07() {
    var spring = FlipSpring()
    spring.retarget(180, at: 1)
    #expect(abs(spring.omega - 2 * .pi / 0.7) < 1e-12)
    #expect(abs(spring.angle(at: 1.7) - 180) < 3)
    #expect(abs(spring.angle(at: 1.7) - 180) > 0.5, "a spring, not a jump")
    #expect(abs(spring.angle(at: 2.0) - 180) < 0.5)
    var previous = 0.0
    for i in 0...400 {
      let a = spring.angle(at: 1 + Double(i) * 0.005)
      #expect(a <= 180.5)
      #expect(a >= previous, "monotonic from rest")
      previous = a
    }
    #expect(spring.isSettled(at: 4))
    #expect(spring.angle(at: 4) == 180)
  }

  /// A second flip mid-turn reverses from the current angle and speed.
  @Test(arguments: [0.1, 0.25, 0.4])
  func reversalIsContinuous(after: Double) {
    var spring = FlipSpring()
    spring.retarget(180, at: 0)
    let angle = spring.angle(at: after)
    let velocity = spring.velocity(at: after)
    #expect(velocity > 0)
    spring.retarget(0, at: after)
    #expect(abs(spring.angle(at: after) - angle) < 1e-9)
    #expect(abs(spring.velocity(at: after) - velocity) < 1e-9)
    // Just after, still continuous (no jump over one 60 Hz frame).
    #expect(abs(spring.angle(at: after + 1e-4) - angle) < 0.1)
    #expect(spring.angle(at: after + 3) == 0)
    for i in 0...300 {
      let a = spring.angle(at: after + Double(i) * 0.01)
      #expect(a >= 0 && a <= 180)
    }
  }
}

@Suite struct TwoPhaseFlipTests {
  @Test func twoLinearHalves() {
    var flip = TwoPhaseFlip()
    flip.retarget(180, at: 2)
    #expect(flip.angle(at: 2) == 0)
    #expect(abs(flip.angle(at: 2.15) - 45) < 1e-9)
    #expect(abs(flip.angle(at: 2.3) - 90) < 1e-9)
    #expect(abs(flip.angle(at: 2.45) - 135) < 1e-9)
    #expect(flip.angle(at: 2.6) == 180)
    #expect(flip.isSettled(at: 2.6))
    #expect(!flip.isSettled(at: 2.59))
  }

  @Test func reversalGoesBackAtTheSameSpeed() {
    var flip = TwoPhaseFlip()
    flip.retarget(180, at: 0)
    flip.retarget(0, at: 0.2)
    #expect(abs(flip.angle(at: 0.2) - 60) < 1e-9)
    #expect(abs(flip.angle(at: 0.3) - 30) < 1e-9)
    #expect(flip.angle(at: 0.4) == 0)
  }
}

@Suite struct FlipAnimatorTests {
  @Test func reduceMotionJumps() {
    var config = CardConfiguration()
    config.reduceMotion = true
    var flip = FlipAnimator(configuration: config)
    flip.retarget(180, at: 1)
    #expect(flip.angle(at: 1) == 180)
    #expect(flip.isSettled(at: 1))
  }

  @Test func styleIsChosenByConfiguration() {
    var config = CardConfiguration()
    config.flipStyle = .twoPhase
    var flip = FlipAnimator(configuration: config)
    flip.retarget(180, at: 0)
    #expect(abs(flip.angle(at: 0.3) - 90) < 1e-9)
    config.flipStyle = .spring
    var spring = FlipAnimator(configuration: config)
    spring.retarget(180, at: 0)
    #expect(abs(spring.angle(at: 0.3) - 90) > 5)
  }
}
