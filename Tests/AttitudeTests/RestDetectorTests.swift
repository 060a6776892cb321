import Testing

@testable import Attitude

@Suite struct RestDetectorTests {
  static let p = FusionParameters()

  /// Feeds `seconds` of 100 Hz readings; the time of the first sample at
  /// which the window is due, if any.
  static func feed(
    _ d: inout RestDetector, gyro: Vector3, seconds: Double, bias: BiasObserver
  ) -> Double? {
    var due: Double?
    for i in 0..<Int(seconds * 100) {
      let now = d.add(
        gyro: gyro, acceleration: Vector3(0, 0, 1), dt: 0.01, orientation: .identity,
        bias: bias)
      if now && due == nil { due = Double(i) * 0.01 }
    }
    return due
  }

  @Test func steadyReadingsMakeAWindowDueAfterTheFirstRestsDuration() throws {
    var d = RestDetector(Self.p)
    d.restart(gyro: .zero, acceleration: Vector3(0, 0, 1))
    let due = try #require(Self.feed(&d, gyro: .zero, seconds: 1, bias: BiasObserver(Self.p)))
    #expect(abs(due - Self.p.initialRestMinimumDuration) < 0.015)
    d.close(accepted: true, orientation: .identity)
    #expect(d.isAtRest)
  }

  @Test func aConfirmedBiasWaitsTheLongerDuration() throws {
    var d = RestDetector(Self.p)
    var bias = BiasObserver(Self.p)
    bias.isConfirmed = true
    d.restart(gyro: .zero, acceleration: Vector3(0, 0, 1))
    let due = try #require(Self.feed(&d, gyro: .zero, seconds: 2, bias: bias))
    #expect(abs(due - Self.p.restMinimumDuration) < 0.015)
  }

  @Test func aJoltEndsTheRestAndTheWindow() {
    var d = RestDetector(Self.p)
    d.restart(gyro: .zero, acceleration: Vector3(0, 0, 1))
    _ = Self.feed(&d, gyro: .zero, seconds: 0.3, bias: BiasObserver(Self.p))
    d.isAtRest = true
    _ = d.add(
      gyro: Vector3(1, 0, 0), acceleration: Vector3(0, 0, 1), dt: 0.01, orientation: .identity,
      bias: BiasObserver(Self.p))
    #expect(!d.isAtRest && !d.window.isOpen)
  }

  @Test func aSteadyRateBeyondTheLargestBiasIsNoRest() {
    var d = RestDetector(Self.p)
    let fast = Vector3(1.5 * Self.p.maximumBias, 0, 0)
    d.restart(gyro: fast, acceleration: Vector3(0, 0, 1))
    #expect(Self.feed(&d, gyro: fast, seconds: 3, bias: BiasObserver(Self.p)) == nil)
  }

  @Test func theGateWidensWithTheBiasVariance() {
    var d = RestDetector(Self.p)
    d.updateGate(biasVariance: 0)
    let narrow = d.gate2
    d.updateGate(biasVariance: 1e-4)
    #expect(abs(d.gate2 - narrow - d.biasGate2 * 1e-4) < 1e-15)
  }
}
