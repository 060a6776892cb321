import Testing

@testable import Attitude

@Suite struct BiasObserverTests {
  static let p = FusionParameters()

  @Test func aSeedBeyondTheLimitBecomesTheCentre() {
    var o = BiasObserver(Self.p)
    let far = 3 * Self.p.maximumBias
    o.seed(GyroBiasEstimate(bias: Vector3(far, 0.001, 0), uncertainty: 0))
    #expect(o.centre == Vector3(far, 0, 0))
    #expect(o.isSeeded && !o.isConfirmed)
    #expect(o.covariance.largestVariance == Self.p.restGyroscopeNoise * Self.p.restGyroscopeNoise)
    o.bias = Vector3(far + 2 * Self.p.maximumBias, -1, 0)
    o.clamp()
    #expect(o.bias == Vector3(far + Self.p.maximumBias, -Self.p.maximumBias, 0))
  }

  @Test func theCovarianceWandersUpToItsBound() {
    var o = BiasObserver(Self.p)
    o.seed(GyroBiasEstimate(bias: .zero, uncertainty: 0))
    let start = o.covariance.largestVariance
    o.wander(interval: 100)
    #expect(o.covariance.largestVariance > start)
    #expect(o.confirmedVariance == o.covariance.largestVariance)
    o.wander(interval: 1e9)
    #expect(o.covariance.largestVariance <= Self.p.maximumBias * Self.p.maximumBias * (1 + 1e-12))
  }

  /// Corrections that undo a drift of 0.01 rad/s about x (the card level
  /// and still, so the rows are the world's): the bias learns x, and
  /// nothing about the vertical, which the corrections do not see.
  @Test func correctionsInMotionMeasureTheHorizontalBias() {
    var o = BiasObserver(Self.p)
    let dt = 0.02
    for _ in 0..<1000 {
      o.followRows(.identity, frequency: 2.0.squareRoot() / 3, interval: dt)
      let error = Vector3(0.01, 0, 0) - o.bias
      o.observeInMotion(
        correction: Vector3(-error.x * dt, -error.y * dt, 0), trust: 1, recentRotation: 0,
        interval: dt)
    }
    #expect(abs(o.bias.x - 0.01) < 0.005, "most of the way in 20 s")
    #expect(o.bias.z == 0)
    #expect(o.covariance.xx < o.covariance.zz)
  }

  /// A second of readings at a steady rate `rate` (rad/s) with the
  /// accelerometer turning as `turn` (rad/s) says.
  static func window(rate: Vector3, turn: Vector3) -> RestWindow {
    var w = RestWindow(start: .identity)
    for i in 1...100 {
      let t = Double(i) * 0.01
      let g = Vector3(0, 0, 1) - turn.cross(Vector3(0, 0, 1)) * t
      w.add(rate, acceleration: g, interval: 0.01)
    }
    return w
  }

  @Test func aStillWindowIsARestThatMeasuresTheBias() {
    var o = BiasObserver(Self.p)
    let rate = Vector3(0.01, -0.005, 0.002)
    let accepted = o.acceptsRest(Self.window(rate: rate, turn: .zero))
    #expect(accepted)
    #expect(o.isConfirmed && o.confirmedBias == o.bias)
    #expect((o.bias - rate).length < 1e-3)
  }

  @Test func aWindowTheAccelerometerSeesTurnIsNoRest() {
    var o = BiasObserver(Self.p)
    let rate = Vector3(0.03, 0, 0)
    let accepted = o.acceptsRest(Self.window(rate: rate, turn: rate))
    #expect(!accepted)
    #expect(!o.isConfirmed && o.bias == .zero)
  }
}
