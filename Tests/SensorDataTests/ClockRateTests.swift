import Foundation
import TestTools
import Testing

@testable import SensorData

/// contract §1.7: time by `MSC_TIMESTAMP`, but where its rate disagrees with the
/// event clock's beyond their jitter, the event clock's rate wins.
@Suite struct ClockRateTests {
  /// A plain IMU node (no driver quirk: the identity frame), 8192 units/g and
  /// 1024 units/(deg/s), with `MSC_TIMESTAMP`.
  static let imu = DeviceInfo(
    name: "Test IMU", id: DeviceID(bustype: 3, vendor: 0x1d6b, product: 0x7a17, version: 1),
    properties: [InputProperty.accelerometer],
    codes: [EventType.abs: [0, 1, 2, 3, 4, 5], EventType.msc: [MscCode.timestamp]],
    absInfo: Dictionary(
      uniqueKeysWithValues: (0...5).map { code in
        (
          UInt16(code),
          AbsInfo(
            minimum: -2_097_152, maximum: 2_097_152, resolution: code < 3 ? 8192 : 1024)
        )
      }))

  /// One frame of the recording: its event time and `MSC_TIMESTAMP` (µs), and
  /// the rate about z in deg/s.
  struct Step {
    var eventMicros: Int64
    var msc: Int64
    var degreesPerSecond: Double
  }

  /// 1 s at rest, a turn of 60 deg/s for 100 samples (0.5 s by the event
  /// clock: 30°), 0.5 s at rest. Sample k is sent at `event(k)` and stamped
  /// `msc(k)`.
  static func turn(event: (Int) -> Int64, msc: (Int) -> Int64) -> [Step] {
    (0..<400).map { k in
      Step(eventMicros: event(k), msc: msc(k), degreesPerSecond: (200..<300).contains(k) ? 60 : 0)
    }
  }

  /// Decodes the steps; returns the samples' times and the integrated turn
  /// about card z in degrees (each rate times the step before it).
  static func play(_ steps: [Step]) throws -> (times: [Double], turn: Double, check: ClockRateCheck)
  {
    var decoder = SampleDecoder(profile: .classify(imu))
    var times: [Double] = []
    var turn = 0.0
    var last: Double?
    for step in steps {
      let time = EventTime(
        seconds: 1000 + step.eventMicros / 1_000_000, microseconds: step.eventMicros % 1_000_000)
      let events: [(UInt16, UInt16, Int32)] = [
        (EventType.abs, 2, 8192), (EventType.abs, 5, Int32(step.degreesPerSecond * 1024)),
        (EventType.msc, MscCode.timestamp, Int32(truncatingIfNeeded: step.msc)),
        (EventType.syn, SynCode.report, 0),
      ]
      let frame = Frame(
        events: events.map { InputEvent(time: time, type: $0.0, code: $0.1, value: $0.2) })
      let decoded = decoder.decode(frame)
      let sample = try #require(decoded)
      if let last, let rate = sample.rotationRate {
        turn += rate.z * 180 / .pi * (sample.time - last)
      }
      last = sample.time
      times.append(sample.time)
    }
    return (times, turn, decoder.timestampRate)
  }

  @Test func aSlowMscClockIsTimedAtTheEventClocksRate() throws {
    // hid-nintendo: reports 15.0 ms apart counted as 14 ms, so each of the
    // three samples a report carries steps 4.667 ms instead of 5.
    let r = try Self.play(Self.turn(event: { Int64($0) * 5000 }, msc: { Int64($0) * 4667 }))
    #expect(abs(r.turn - 30) < 0.1, "the 30° turn reads \(r.turn)°")
    #expect(r.check.eventClockWins)
    #expect(abs((r.check.rate ?? 0) - 5000.0 / 4667) < 1e-4)
  }

  @Test func hidNintendosThreeSamplesAReportStillFindTheRate() throws {
    // Three frames per 15 ms report arrive together (a few µs apart); the
    // event times jitter by up to ±2 ms on top.
    var random = SeededGenerator(seed: 14)
    let jitter = (0..<134).map { _ in Int64.random(in: -2000...2000, using: &random) }
    let r = try Self.play(
      Self.turn(
        event: { k in 20_000 + Int64(k / 3) * 15_000 + jitter[k / 3] + Int64(k % 3) * 4 },
        msc: { Int64($0) * 4667 }))
    #expect(r.check.eventClockWins)
    #expect(abs(r.turn - 30) < 0.3, "the 30° turn reads \(r.turn)°")
  }

  @Test func aRightMscClockIsLeftAlone() throws {
    var random = SeededGenerator(seed: 7)
    let jitter = (0..<400).map { _ in Int64.random(in: -1000...1000, using: &random) }
    let r = try Self.play(
      Self.turn(event: { 10_000 + Int64($0) * 5000 + jitter[$0] }, msc: { Int64($0) * 5000 }))
    #expect(!r.check.eventClockWins)
    #expect(r.check.appliedRate == 1)
    #expect(r.times == (0..<400).map { Double($0 * 5000) / 1_000_000 })
    #expect(abs(r.turn - 30) < 1e-9)
  }

  @Test func aRightMscClockWithBurstyReportsIsLeftAlone() throws {
    let r = try Self.play(
      Self.turn(event: { Int64($0 / 3) * 15_000 + Int64($0 % 3) * 3 }, msc: { Int64($0) * 5000 }))
    #expect(!r.check.eventClockWins)
    #expect(r.times == (0..<400).map { Double($0 * 5000) / 1_000_000 })
  }

  /// Reports queued while the reader was busy and read at once carry event
  /// times microseconds apart over a second of `MSC_TIMESTAMP`: the event
  /// clock is what is wrong there, and following it stopped the clock (the
  /// VM saw every frame after a reopen at one `t`).
  @Test func aBurstOfQueuedReportsDoesNotStopTheClock() throws {
    let r = try Self.play(
      Self.turn(
        event: { k in k < 250 ? Int64(k) * 2 : 500 + Int64(k - 250) * 5000 },
        msc: { Int64($0) * 5000 }))
    #expect(!r.check.eventClockWins)
    #expect(r.times == (0..<400).map { Double($0 * 5000) / 1_000_000 })
  }

  @Test func aDifferenceWithinTheMinimumIsNotCorrected() {
    // 0.2 % (2000 ppm) is more than a crystal's error but below the 0.5 % floor.
    var check = ClockRateCheck()
    for k in 0..<1000 { check.add(msc: Double(k) * 5000, event: Double(k) * 5010) }
    #expect(abs((check.rate ?? 0) - 1.002) < 1e-9)
    #expect(!check.eventClockWins)
  }

  @Test func tooShortALineDecidesNothing() {
    var check = ClockRateCheck()
    for k in 0..<50 { check.add(msc: Double(k) * 4667, event: Double(k) * 5000) }  // 0.23 s
    #expect(!check.eventClockWins)
    for k in 50..<120 { check.add(msc: Double(k) * 4667, event: Double(k) * 5000) }  // 0.56 s
    #expect(check.eventClockWins)
  }

  @Test func aCounterResetKeepsTheCorrection() throws {
    // The counter restarts from 0 after 1.5 s (a reconnect).
    let r = try Self.play(
      Self.turn(
        event: { Int64($0) * 5000 },
        msc: { k in k < 300 ? 900_000_000 + Int64(k) * 4667 : Int64(k - 300) * 4667 }))
    #expect(r.check.eventClockWins)
    #expect(abs(r.turn - 30) < 0.1)
    let last = r.times[399] - r.times[300]
    #expect(abs(last - 99 * 0.005) < 1e-3, "\(last)")
  }
}
