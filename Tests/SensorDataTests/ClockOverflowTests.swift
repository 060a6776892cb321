import Foundation
import Testing

@testable import SensorData

/// Issue 20: times that a crafted recording can carry must not overflow the
/// sample clock. Each event time is within the reader's ±10¹² s, but times
/// that jump back and forth by that much add 10¹⁸ µs at every step forward
/// (a step back counts as zero), and `Int64` holds 9.2·10¹⁸: the clock
/// trapped after about ten steps.
@Suite struct ClockOverflowTests {
  /// An accelerometer and gyroscope at 8192 units/g and 1024 units/(deg/s);
  /// with `msc`, it has `MSC_TIMESTAMP` too.
  static func header(msc: Bool) -> String {
    "# EVEMU 1.3\nN: Crafted IMU\nI: 0003 1d6b 7a17 0001\nP: 40 00 00 00 00 00 00 00\n"
      + "B: 00 0b 00 00 00 00 00 00 00\nB: 03 3f 00 00 00 00 00 00 00\n"
      + (msc ? "B: 04 20 00 00 00 00 00 00 00\n" : "")
      + "A: 00 -32768 32767 16 0 8192\nA: 01 -32768 32767 16 0 8192\nA: 02 -32768 32767 16 0 8192\n"
      + "A: 03 -32768 32767 16 0 1024\nA: 04 -32768 32767 16 0 1024\nA: 05 -32768 32767 16 0 1024\n"
  }

  /// `count` frames whose event times alternate between 0 s and the
  /// reader's largest, 10¹² s; with `msc`, stamped 5 ms apart.
  static func seesaw(count: Int, msc: Bool) -> String {
    var text = header(msc: msc)
    for k in 0..<count {
      let time = k % 2 == 0 ? "0.000000" : "1000000000000.000000"
      text += "E: \(time) 0003 0002 8192\n"
      if msc { text += "E: \(time) 0004 0005 \(k * 5000)\n" }
      text += "E: \(time) 0000 0000 0\n"
    }
    return text
  }

  /// The sample times of a recording, through the reader, the decoder and its clock.
  static func times(_ text: String) throws -> [Double] {
    let reader = try EvemuReader(path: TestData.file(text))
    var decoder = SampleDecoder(profile: .classify(reader.info))
    var times: [Double] = []
    while let frame = try reader.nextFrame() {
      if let sample = decoder.decode(frame) { times.append(sample.time) }
    }
    return times
  }

  @Test func eventTimesJumpingBackAndForthByATrillionSecondsDoNotOverflow() throws {
    let times = try Self.times(Self.seesaw(count: 40, msc: false))
    #expect(times.count == 40)
    #expect(times.allSatisfy { $0.isFinite })
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "times go backwards")
    // Before the clock is full it counts each step forward as it is.
    #expect(Array(times.prefix(5)) == [0, 1e12, 1e12, 2e12, 2e12])
    // Then it stays at the largest time it can hold, about 292,000 years.
    #expect(times.last == Double(Int64.max) / 1_000_000)
  }

  @Test func anMscClockIsNotShakenByEventTimesJumpingBackAndForth() throws {
    let times = try Self.times(Self.seesaw(count: 40, msc: true))
    #expect(times == (0..<40).map { Double($0 * 5000) / 1_000_000 })
  }

  /// The clock itself takes any `Int64`: the live path's event times come
  /// from the kernel's `struct timeval`, not through the reader's bound.
  @Test(arguments: [false, true]) func extremeEventTimesSaturate(useMsc: Bool) {
    var clock = SampleClock(useMsc: useMsc)
    var last: Int64 = 0
    let times: [Int64] = [.min, .max, .min, .max, 0, .max, .min, .max]
    for (k, time) in times.enumerated() {
      let now = clock.advance(eventTime: time, msc: useMsc ? UInt32(k * 5000) : nil)
      #expect(now >= last)
      last = now
    }
    if !useMsc { #expect(last == .max) }
  }

  /// A counter that resets at every frame (0, 2³¹, 0, …: each step is 2³¹
  /// µs, a reset) times each frame by its event time: the same seesaw then
  /// reaches the clock through the `MSC_TIMESTAMP` path.
  @Test func resettingMscCountersWithSeesawEventTimesDoNotOverflow() throws {
    var text = Self.header(msc: true)
    for k in 0..<40 {
      let time = k % 2 == 0 ? "0.000000" : "1000000000000.000000"
      let msc = k % 2 == 0 ? 0 : Int(Int32.min)
      text += "E: \(time) 0003 0002 8192\nE: \(time) 0004 0005 \(msc)\nE: \(time) 0000 0000 0\n"
    }
    let times = try Self.times(text)
    #expect(times.count == 40)
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "times go backwards")
    #expect(Array(times.prefix(3)) == [0, 1e12, 1e12])
    #expect(times.last == Double(Int64.max) / 1_000_000)
  }
}
