import Foundation
import TestTools
import Testing

@testable import Evdev
@testable import SensorData

/// Issue 20: `info`'s rate probe on crafted input. Its sums overflowed
/// `Int64` on intervals of 10¹⁸ µs (event times that jump back and forth
/// within the evemu reader's ±10¹² s), and it kept every interval, so its
/// memory grew with the recording.
@Suite struct RateProbeBoundsTests {
  @Test func eventTimesJumpingBackAndForthByATrillionSecondsDoNotOverflow() throws {
    var text =
      "# EVEMU 1.3\nN: Crafted\nI: 0003 1d6b 7a17 0001\nP: 40 00 00 00 00 00 00 00\n"
      + "B: 00 0b 00 00 00 00 00 00 00\nB: 03 07 00 00 00 00 00 00 00\n"
      + "A: 00 -32768 32767 16 0 8192\nA: 01 -32768 32767 16 0 8192\nA: 02 -32768 32767 16 0 8192\n"
    for k in 0..<40 {
      let time = k % 2 == 0 ? "0.000000" : "1000000000000.000000"
      text += "E: \(time) 0003 0002 8192\nE: \(time) 0000 0000 0\n"
    }
    let path = NSTemporaryDirectory() + "tilt-probe-\(UUID().uuidString).evemu"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reader = try EvemuReader(path: path)
    var probe = RateProbe()
    while let frame = try reader.nextFrame() { probe.add(frame) }
    let report = probe.report
    #expect(report.sampleCount == 40)
    #expect(report.intervalCount == 20, "each step forward is an interval")
    #expect(report.timestampResets == 19, "each step back starts a new line")
    #expect(report.medianIntervalMs == 1e15)
    #expect(try #require(report.rateHz).isApproximately(1e-12, tolerance: 1e-24))
  }

  @Test func theMostDistantEventTimesDoNotOverflowAnInterval() {
    var probe = RateProbe()
    for seconds: Int64 in [-9_000_000_000_000, 9_000_000_000_000, -9_000_000_000_000] {
      let time = EventTime(seconds: seconds, microseconds: 0)
      probe.add(
        Frame(events: [
          InputEvent(time: time, type: EventType.abs, code: AbsCode.x, value: 1),
          InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0),
        ]))
    }
    #expect(probe.report.intervalCount == 0)
    #expect(probe.report.timestampResets == 2)
  }

  /// A million intervals spread over twenty octaves (0 to 1 s, uniform): the
  /// probe holds at most `IntervalCounts.capacity` buckets (it held all
  /// million, 8 MB, and sorted a copy), and its median and p99 stay within
  /// the half-width of a bucket of 9 binary digits, 1 part in 2⁹, of the exact ones.
  @Test func memoryIsBoundedWhateverTheIntervals() throws {
    var random = SeededGenerator(seed: 20)
    var probe = RateProbe()
    var time: Int64 = 0
    var intervals: [Int64] = []
    intervals.reserveCapacity(1_000_000)
    probe.add(LiveRateProbeTests.eventFrame(at: 0))
    for _ in 0..<1_000_000 {
      let interval = Int64.random(in: 0...1_000_000, using: &random)
      time += interval
      intervals.append(interval)
      probe.add(LiveRateProbeTests.eventFrame(at: time))
    }
    #expect(probe.intervals.counts.count <= IntervalCounts.capacity)
    let report = probe.report
    #expect(report.intervalCount == 1_000_000)
    intervals.sort()
    let exactMedian = Double(intervals[499_999] + intervals[500_000]) / 2
    let exactP99 = Double(intervals[989_999])
    let median = try #require(report.medianIntervalMs) * 1000
    let p99 = try #require(report.intervalP99Ms) * 1000
    #expect(
      abs(median - exactMedian) <= exactMedian / 512, "median \(median) µs, exact \(exactMedian)")
    #expect(abs(p99 - exactP99) <= exactP99 / 512, "p99 \(p99) µs, exact \(exactP99)")
    let exactMean = Double(time) / 1_000_000
    #expect(try #require(report.meanIntervalMs) * 1000 == exactMean)
  }

  /// A device's intervals (its period and a jitter of a few hundred µs) are
  /// counted exactly: the figures are those of the whole list.
  @Test func aDevicesIntervalsAreCountedExactly() throws {
    var random = SeededGenerator(seed: 5)
    var probe = RateProbe()
    var time: Int64 = 0
    var intervals: [Int64] = []
    probe.add(LiveRateProbeTests.eventFrame(at: 0))
    for _ in 0..<20_000 {
      let interval = 4000 + Int64.random(in: -300...300, using: &random)
      time += interval
      intervals.append(interval)
      probe.add(LiveRateProbeTests.eventFrame(at: time))
    }
    intervals.sort()
    let report = probe.report
    #expect(report.medianIntervalMs == Double(intervals[9999] + intervals[10000]) / 2 / 1000)
    #expect(report.intervalP99Ms == Double(intervals[19799]) / 1000)
    #expect(report.gapCount == 0)
  }
}
