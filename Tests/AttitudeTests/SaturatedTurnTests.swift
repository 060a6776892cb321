import Testing

@testable import Attitude

@Suite struct SaturatedTurnTests {
  static func turn(range: Double = 5) -> SaturatedTurn {
    var p = FusionParameters()
    p.gyroscopeRange = range
    return SaturatedTurn(p)
  }

  @Test func aSaturatedAxisIsContinuedAlongTheChangeBeforeTheCut() {
    var s = Self.turn()
    let below = s.continued(Vector3(3, 1, 0), time: 0)
    #expect(below == Vector3(3, 1, 0))
    _ = s.continued(Vector3(4, 1.5, 0), time: 0.01)
    // x went up twice as fast as y; y goes on by 1, so x by 2.
    let cut = s.continued(Vector3(5, 2.5, 0), time: 0.02)
    #expect(abs(cut.x - 6) < 1e-12 && cut.y == 2.5)
    #expect(!s.lostPartUnknown)
  }

  @Test func aCutWithNothingBelowTheRangeIsLost() {
    var s = Self.turn()
    _ = s.continued(Vector3(3, 0, 0), time: 0)
    _ = s.continued(Vector3(4, 0, 0), time: 0.01)
    let cut = s.continued(Vector3(5, 0, 0), time: 0.02)
    #expect(cut == Vector3(5, 0, 0))
    #expect(s.lostPartUnknown)
  }

  @Test func aCutAfterAGapHasNoDirection() {
    var s = Self.turn()
    _ = s.continued(Vector3(3, 1, 0), time: 0)
    _ = s.continued(Vector3(4, 1.5, 0), time: 1)
    let cut = s.continued(Vector3(5, 2.5, 0), time: 1.01)
    #expect(cut == Vector3(5, 2.5, 0))
    #expect(s.lostPartUnknown)
  }

  @Test func theGateLeavesRoomForTheLargestBias() {
    var p = FusionParameters()
    p.gyroscopeRange = 10
    var gate = SaturationGate(p, centre: .zero)
    let room = 10 - p.maximumBias * 3.0.squareRoot()
    #expect(abs(gate.near2 - room * room * 0.25) < 1e-12)
    gate.update(centre: Vector3(0.1, 0, 0))
    #expect(abs(gate.limit2 - (room - 0.1) * (room - 0.1)) < 1e-12)
    #expect(gate.isSaturated(Vector3(0, -10, 0)) && !gate.isSaturated(Vector3(9.9, 9.9, 9.9)))
    #expect(SaturationGate(FusionParameters(), centre: .zero).near2 == .infinity)
  }
}
