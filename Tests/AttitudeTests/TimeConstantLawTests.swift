import Testing

@testable import Attitude

@Suite struct TimeConstantLawTests {
  /// Ten seconds of 20 ms blocks: mean `mean` against gravity (0, 0, 1),
  /// mean square rate `rotation2`; the last block's frequency.
  static func run(
    _ law: inout TimeConstantLaw, mean: Vector3 = Vector3(0, 0, 1), rotation2: Double = 0,
    isAtRest: Bool = false, seconds: Double = 10
  ) -> Double {
    var omega = 0.0
    for _ in 0..<Int(seconds / 0.02) {
      omega = law.frequency(
        mean: mean, gravity: Vector3(0, 0, 1), rotation2: rotation2, biasDrift2: 0,
        biasVariance: 0, isAtRest: isAtRest, interval: 0.02)
    }
    return omega
  }

  @Test func aFixedTimeConstantGivesItsFrequency() {
    var p = FusionParameters()
    p.fixAccelerometerTimeConstant(2)
    var law = TimeConstantLaw(p)
    let omega = Self.run(&law, mean: Vector3(0.3, 0, 1), rotation2: 4)
    #expect(law.trust == 1)
    #expect(omega == 2.0.squareRoot() / 2)
  }

  @Test func turningShortensAndPushingLengthensTheTimeConstant() {
    var turning = TimeConstantLaw(FusionParameters())
    _ = Self.run(&turning, rotation2: 4, seconds: 30)
    #expect(turning.trust > 1)
    var pushed = TimeConstantLaw(FusionParameters())
    _ = Self.run(&pushed, mean: Vector3(0.3, 0, 1), seconds: 30)
    #expect(pushed.trust < 1)
    let p = FusionParameters()
    #expect(
      1 / turning.trust >= p.minimumAccelerometerTimeConstant / p.accelerometerTimeConstant - 1e-6)
    #expect(
      1 / pushed.trust <= p.maximumAccelerometerTimeConstant / p.accelerometerTimeConstant + 1e-6)
  }

  @Test func atRestADisagreementSpeedsTheLowPassUp() {
    let p = FusionParameters()
    var agreeing = TimeConstantLaw(p)
    let still = Self.run(&agreeing, isAtRest: true)
    #expect(still == agreeing.accelerationFrequency)
    var disagreeing = TimeConstantLaw(p)
    let wrong = Self.run(&disagreeing, mean: Vector3(0.2, 0, 1), isAtRest: true)
    #expect(wrong > 0.9 * disagreeing.restAccelerationFrequency)
    #expect(wrong <= disagreeing.restAccelerationFrequency)
  }

  @Test func resetForgetsTheUsage() {
    var law = TimeConstantLaw(FusionParameters())
    _ = Self.run(&law, rotation2: 4)
    law.reset()
    #expect(law.trust == 1 && law.usageRotation == 0 && law.recentRotation == 0)
  }
}
