import Testing

@testable import Evdev
@testable import SensorData

@Suite struct LiveRateProbeTests {
  /// A sample frame with MSC_TIMESTAMP `timestamp`, at event time `eventUs`.
  static func mscFrame(_ timestamp: UInt32, eventUs: Int64 = 0) -> Frame {
    Frame(events: [
      Script.abs(AbsCode.x, 1, at: eventUs), Script.msc(timestamp, at: eventUs),
      Script.report(at: eventUs),
    ])
  }

  static func eventFrame(at us: Int64) -> Frame { Frame(events: Script.sample(0, 0, 256, at: us)) }

  @Test func steadyEventTimedStreamHasItsRateAndNoJitter() throws {
    var probe = RateProbe()
    probe.add((0..<101).map { Self.eventFrame(at: 1_000_000 + Int64($0) * 4000) })
    let report = probe.report
    #expect(report.clock == .event)
    #expect(report.sampleCount == 101)
    #expect(report.intervalCount == 100)
    #expect(try #require(report.rateHz).isApproximately(250, tolerance: 1e-9))
    #expect(report.medianIntervalMs == 4)
    #expect(report.intervalStdDevMs == 0)
    #expect(report.intervalP99Ms == 4)
    #expect(report.droppedFrames == 0)
    #expect(report.timestampWraps == 0)
  }

  @Test func mscTimestampIsPreferredOverEventTime() throws {
    var probe = RateProbe()
    // Event times arrive in bursts of two; the device's clock says 1 ms apart.
    probe.add((0..<10).map { Self.mscFrame(UInt32($0) * 1000, eventUs: Int64($0 / 2) * 2000) })
    let report = probe.report
    #expect(report.clock == .msc)
    #expect(report.medianIntervalMs == 1)
    #expect(try #require(report.rateHz).isApproximately(1000, tolerance: 1e-9))
  }

  @Test func wrapAtTwoToTheThirtyTwoIsCountedAndTheIntervalsStayRight() {
    var probe = RateProbe()
    let start = UInt32.max - 2500  // wraps between the 3rd and 4th sample
    probe.add((0..<6).map { Self.mscFrame(start &+ UInt32($0) * 1000) })
    let report = probe.report
    #expect(report.timestampWraps == 1)
    #expect(report.timestampResets == 0)
    #expect(report.intervalCount == 5)
    #expect(report.medianIntervalMs == 1)
    #expect(report.intervalP99Ms == 1)
    #expect(report.gapCount == 0)
  }

  @Test func aTimestampResetIsNotAWrapAndIsNotMeasured() {
    var probe = RateProbe()
    probe.add([5_000_000, 5_001_000, 5_002_000, 100, 1100, 2100].map { Self.mscFrame($0) })
    let report = probe.report
    #expect(report.timestampWraps == 0)
    #expect(report.timestampResets == 1)
    #expect(report.intervalCount == 4)
    #expect(report.medianIntervalMs == 1)
  }

  @Test func gapsLongerThanOneAndAHalfMediansCountAsMissedSamples() {
    var probe = RateProbe()
    // 4 ms steps; one 12 ms gap (2 samples missing) and one 7 ms gap (1 missing).
    let times: [Int64] = [0, 4, 8, 12, 24, 28, 32, 39, 43, 47].map { $0 * 1000 }
    probe.add(times.map { Self.eventFrame(at: $0) })
    let report = probe.report
    #expect(report.medianIntervalMs == 4)
    #expect(report.gapCount == 2)
    #expect(report.missedSamples == 3)
    #expect(report.droppedFrames == 3)
    #expect(report.intervalP99Ms == 12)
  }

  @Test func resyncFramesCountAsDropsAndBreakTheIntervalChain() {
    var probe = RateProbe()
    probe.add([Self.eventFrame(at: 0), Self.eventFrame(at: 4000)])
    probe.add(Frame(events: [Script.dropped(at: 50_000), Script.report(at: 50_000)]))
    probe.add([Self.eventFrame(at: 100_000), Self.eventFrame(at: 104_000)])
    let report = probe.report
    #expect(report.synDroppedCount == 1)
    #expect(report.sampleCount == 4)
    #expect(report.intervalCount == 2)
    #expect(report.gapCount == 0)
    #expect(report.droppedFrames == 1)
  }

  @Test func jitterIsThePopulationStandardDeviationAndNearestRankP99() throws {
    var probe = RateProbe()
    // Intervals alternate 3 ms and 5 ms: mean 4, standard deviation 1.
    var time: Int64 = 0
    var frames = [Self.eventFrame(at: 0)]
    for index in 0..<200 {
      time += index.isMultiple(of: 2) ? 3000 : 5000
      frames.append(Self.eventFrame(at: time))
    }
    probe.add(frames)
    let report = probe.report
    #expect(try #require(report.intervalStdDevMs).isApproximately(1, tolerance: 1e-12))
    #expect(report.meanIntervalMs == 4)
    #expect(report.intervalP99Ms == 5)
    #expect(report.medianIntervalMs == 4)
  }

  @Test func syncOnlyAndEmptyFramesAreNotSamples() {
    var probe = RateProbe()
    probe.add(Frame(events: [Script.report(at: 0)]))
    probe.add(Frame(events: []))
    let report = probe.report
    #expect(report.sampleCount == 0)
    #expect(report.clock == nil)
    #expect(report.rateHz == nil)
    #expect(report.intervalStdDevMs == nil)
  }

  @Test func aSingleSampleHasNoRate() {
    var probe = RateProbe()
    probe.add(Self.mscFrame(77))
    #expect(probe.report.sampleCount == 1)
    #expect(probe.report.rateHz == nil)
  }

  @Test func samplesWithoutTimestampOnAnMscDeviceAreCountedAsUntimed() {
    var probe = RateProbe()
    probe.add([Self.mscFrame(0), Self.eventFrame(at: 10), Self.mscFrame(2000)])
    let report = probe.report
    #expect(report.sampleCount == 3)
    #expect(report.untimedSamples == 1)
    #expect(report.intervalCount == 1)
    #expect(report.medianIntervalMs == 2)
  }
}

extension Double {
  func isApproximately(_ other: Double, tolerance: Double) -> Bool {
    abs(self - other) <= tolerance
  }
}
