import Testing

@testable import Attitude

@Suite struct AccelerometerGatesTests {
  static func gates(range: Double = 2) -> AccelerometerGates {
    var p = FusionParameters()
    p.accelerometerRange = range
    p.clippedHoldTime = 1
    return AccelerometerGates(p)
  }

  @Test func onlyAnAxisAtTheRangeIsClipped() {
    let g = Self.gates()
    let atRange = Vector3(0, 0, 2)
    let longButBelow = Vector3(1.9, 1.9, 0)
    #expect(g.isClipped(atRange, magnitude2: atRange.lengthSquared))
    #expect(!g.isClipped(longButBelow, magnitude2: longButBelow.lengthSquared))
    let unknown = Self.gates(range: .infinity)
    #expect(!unknown.isClipped(Vector3(0, 0, 100), magnitude2: 10_000))
  }

  @Test func aClipHoldsTheAccelerometerOffThenFadesItIn() {
    var g = Self.gates()
    let first = g.holdAfterClip(at: 10)
    let second = g.holdAfterClip(at: 10.5)
    #expect(first)
    #expect(!second, "within the hold: no new one")
    // The hold now ends at 11.5, the fade at 12.5.
    #expect(!g.admits(time: 11.4, magnitude2: 1, hasInclination: true))
    #expect(g.admits(time: 11.6, magnitude2: 1, hasInclination: true))
    #expect(abs(g.fade(at: 11.5)! - 0) < 1e-12)
    #expect(abs(g.fade(at: 12)! - 0.5) < 1e-12)
    #expect(g.fade(at: 12.5) == nil)
  }

  @Test func aLostTurnHoldsWithoutAFade() {
    var g = Self.gates()
    g.holdAfterJump(at: 3)
    #expect(!g.admits(time: 3, magnitude2: 1, hasInclination: true))
    #expect(g.admits(time: 3.01, magnitude2: 1, hasInclination: true))
    #expect(g.fade(at: 3.01) == nil)
  }

  @Test func onlyAUsableReadingStartsTheInclination() {
    let g = Self.gates()
    #expect(!g.admits(time: 0, magnitude2: 0.01, hasInclination: false), "free fall")
    #expect(g.admits(time: 0, magnitude2: 1, hasInclination: false))
    #expect(g.admits(time: 0, magnitude2: 0.01, hasInclination: true))
  }

  @Test func aKnockWeighsLittleAndTheCourseFollowsTheBlocks() {
    var g = Self.gates()
    g.start(at: Vector3(0, 0, 1))
    #expect(g.weight(of: Vector3(0, 0, 1)) == (1, 0))
    // A jump of shockScale (2 g) from the course weighs a half.
    let knock = g.weight(of: Vector3(2, 0, 1))
    #expect(knock.weight == 0.5 && knock.jump2 == 4)
    // Recent jumps as large make such a jump ordinary.
    g.follow(mean: Vector3(0, 0, 1), jump2: 4)
    #expect(g.weight(of: Vector3(2, 0, 1)).weight == 2.0 / 3)

    var linear = FusionParameters()
    linear.shockScale = .infinity
    #expect(AccelerometerGates(linear).weight(of: Vector3(5, 0, 1)) == (1, 0))
  }
}
