import Foundation
import Testing

@testable import Attitude

@Suite struct FilterTests {
  /// Feeds `filter` a turn about z at 1 rad/s for 0.5 s, then a hold, sampled
  /// at `rate`; returns the output angle (degrees) at every 50 ms.
  static func response(of filter: inout some AttitudeFilter, rate: Double) -> [Double] {
    var out: [Double] = []
    let steps = Int(rate * 1.5)
    for i in 0...steps {
      let t = Double(i) / rate
      let input = Quaternion(axis: Vector3(0, 0, 1), angle: min(t, 0.5))
      let q = filter.update(input, time: t)
      if i % Int(rate / 20) == 0 { out.append(degrees(q.angle(to: .identity))) }
    }
    return out
  }

  @Test func lowPassGivesTheSameMotionAt60And1000Hz() {
    var slow = LowPassFilter(timeConstant: 0.1)
    var fast = LowPassFilter(timeConstant: 0.1)
    let a = Self.response(of: &slow, rate: 60)
    let b = Self.response(of: &fast, rate: 1000)
    #expect(a.count == b.count)
    // Sampling a ramp at 60 Hz holds each value for 16.7 ms: about half a
    // sample of delay at 57°/s is 0.5°.
    for (x, y) in zip(a, b) { #expect(abs(x - y) < 0.6) }
    // Once the input holds still, both have decayed by the same exp(−t/τ).
    #expect(abs(a.last! - b.last!) < 0.01)
  }

  @Test(arguments: [30.0, 60, 1000, 4000])
  func lowPassStepResponseIsExactAtAnyRate(rate: Double) {
    var filter = LowPassFilter(timeConstant: 0.2)
    _ = filter.update(.identity, time: 0)
    let target = Quaternion(axis: Vector3(1, 1, 0), angle: 1.0)
    var q = Quaternion.identity
    for i in 1...Int(rate * 0.3) { q = filter.update(target, time: Double(i) / rate) }
    let remaining = q.angle(to: target)
    #expect(abs(remaining - exp(-0.3 / 0.2)) < 1e-6)
  }

  @Test func filtersHoldOnRepeatedTimes() {
    var lowPass = LowPassFilter(timeConstant: 0.1)
    var oneEuro = OneEuroFilter(minCutoff: 1, beta: 5, derivativeCutoff: 1)
    let a = Quaternion(axis: Vector3(1, 0, 0), angle: 0.1)
    let b = Quaternion(axis: Vector3(1, 0, 0), angle: 0.9)
    _ = lowPass.update(a, time: 1)
    _ = oneEuro.update(a, time: 1)
    #expect(lowPass.update(b, time: 1) == a)
    #expect(oneEuro.update(b, time: 0.5) == a)
  }

  @Test func oneEuroIsStillAtRestAndQuickInTurns() {
    var rng = SeededGenerator(seed: 9)
    var oneEuro = OneEuroFilter(minCutoff: 1, beta: 5, derivativeCutoff: 1)
    var inputJitter = 0.0
    var outputJitter = 0.0
    let rest = Quaternion(axis: Vector3(0, 1, 0), angle: 0.3)
    for i in 0..<400 {
      let noisy =
        (rest * Quaternion(rotationVector: rng.gaussianVector(radians(0.3)))).normalized
      let out = oneEuro.update(noisy, time: Double(i) / 200)
      if i >= 200 {
        inputJitter += pow(degrees(noisy.angle(to: rest)), 2)
        outputJitter += pow(degrees(out.angle(to: rest)), 2)
      }
    }
    #expect(outputJitter < inputJitter / 9)

    // A 2 rad/s turn: the One Euro lags less than a low-pass with its floor cutoff.
    var euro = OneEuroFilter(minCutoff: 1, beta: 5, derivativeCutoff: 1)
    var lowPass = LowPassFilter(timeConstant: 1 / (2 * .pi))
    var euroLag = 0.0
    var lowLag = 0.0
    for i in 0..<200 {
      let t = Double(i) / 200
      let input = Quaternion(axis: Vector3(0, 0, 1), angle: 2 * t)
      euroLag = degrees(euro.update(input, time: t).angle(to: input))
      lowLag = degrees(lowPass.update(input, time: t).angle(to: input))
    }
    #expect(euroLag < lowLag / 3)
  }

  @Test func smoothingFilterMakesTheNamedFilter() {
    var none = SmoothingFilter.none.makeFilter()
    let q = Quaternion(axis: Vector3(1, 0, 0), angle: 0.5)
    #expect(none.update(q, time: 0) == q)
    guard case .lowpass(let lp) = SmoothingFilter.lowpass(tau: 0.2).makeFilter() else {
      Issue.record("lowpass makes a LowPassFilter")
      return
    }
    #expect(lp.timeConstant == 0.2)
    guard case .oneEuro(let euro) = MotionConfiguration.defaultFilter.makeFilter() else {
      Issue.record("the default filter is a One Euro filter")
      return
    }
    #expect(euro.minCutoff == 1 && euro.beta == 5 && euro.derivativeCutoff == 1)
  }
}
