import TestTools
import Testing

@testable import MotionService

/// One Motion signal per interval while samples arrive, on the samples' clock.
@Suite struct SignalPacerTests {
  /// How many of `times` (µs) get a signal.
  static func sent(_ times: [UInt64], interval: Double) -> [UInt64] {
    var pacer = SignalPacer(interval: interval)
    return times.filter { pacer.isDue(at: $0) }
  }

  @Test(arguments: [0.001, 0.01, 0.02, 0.1, 1.0])
  func aSignalPerIntervalFromA100HzDeviceWithJitter(interval: Double) {
    var generator = SeededGenerator(seed: 7)
    // 10 s of samples every 10 ms ± 1 ms.
    let times = (0..<1000).map {
      UInt64(1_000_000 + $0 * 10_000 + Int.random(in: -1000...1000, using: &generator))
    }
    let count = Self.sent(times, interval: interval).count
    let expected = min(1000, Int((10 / interval).rounded()))
    #expect(abs(count - expected) <= max(2, expected / 50), "\(count) for \(expected)")
  }

  @Test func theFirstSampleIsSentAtOnce() {
    #expect(Self.sent([5_000_000], interval: 1) == [5_000_000])
  }

  @Test func afterAGapSignalsAreNeverCloserThanHalfAnInterval() {
    // 1 kHz samples with a 0.5 s gap, every 0.1 s.
    let times = (0..<1000).map { UInt64($0 * 1000) } + (1500..<2500).map { UInt64($0 * 1000) }
    let sent = Self.sent(times, interval: 0.1)
    for (a, b) in zip(sent, sent.dropFirst()) { #expect(b - a >= 50_000, "\(a) \(b)") }
  }
}
