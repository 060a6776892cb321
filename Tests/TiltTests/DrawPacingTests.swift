import Testing

@testable import Tilt

@Suite struct DrawPacingTests {
  @Test func cheapFramesAreDrawnAsOftenAsADisplayShowsThem() {
    var pacing = DrawPacing(share: 0.04, shortestInterval: 0.012, longestInterval: 0.1)
    #expect(pacing.interval == 0.012)
    for _ in 0..<10 { pacing.record(cost: 0.0002) }
    #expect(pacing.interval == 0.012)
  }

  @Test func aCostlyFrameIsDrawnLessOftenSoTheShareHolds() {
    var pacing = DrawPacing(share: 0.04, shortestInterval: 0.012, longestInterval: 0.1)
    for _ in 0..<40 { pacing.record(cost: 0.002) }
    // 2 ms a frame in 4 % of a core: a frame every 50 ms.
    #expect(abs(pacing.interval - 0.05) < 1e-9)
    #expect(abs(pacing.cost! / pacing.interval - 0.04) < 1e-9)
  }

  @Test func noFrameWaitsLongerThanTheLongestInterval() {
    var pacing = DrawPacing(share: 0.04, shortestInterval: 0.012, longestInterval: 0.1)
    pacing.record(cost: 1)
    #expect(pacing.interval == 0.1)
  }

  @Test func theCostFollowsAChangeWithinAFewFrames() {
    var pacing = DrawPacing(share: 0.04, shortestInterval: 0.012, longestInterval: 0.1)
    for _ in 0..<20 { pacing.record(cost: 0.004) }
    for _ in 0..<12 { pacing.record(cost: 0.001) }
    #expect(abs(pacing.cost! - 0.001) < 0.0001)
  }

  @Test func aMeasureThatIsNoCostIsLeftOut() {
    var pacing = DrawPacing(share: 0.04, shortestInterval: 0.012, longestInterval: 0.1)
    pacing.record(cost: 0.002)
    pacing.record(cost: -.infinity)
    pacing.record(cost: .nan)
    pacing.record(cost: -1)
    #expect(pacing.cost == 0.002)
  }
}
