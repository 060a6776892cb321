import Foundation
import TestTools
import Testing

@testable import SensorData

/// Builds frames the way a device sends them.
struct FrameBuilder {
  var micros: Int64 = 1_000_000

  mutating func frame(after step: Int64 = 4000, _ events: [(UInt16, UInt16, Int32)]) -> Frame {
    micros += step
    let time = EventTime(seconds: micros / 1_000_000, microseconds: micros % 1_000_000)
    let all = events + [(EventType.syn, SynCode.report, 0)]
    return Frame(events: all.map { InputEvent(time: time, type: $0.0, code: $0.1, value: $0.2) })
  }
}

/// The value, or a recorded failure.
func required<T>(_ value: T?, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
  try #require(value, sourceLocation: sourceLocation)
}

func close(_ a: SIMD3<Double>?, _ b: SIMD3<Double>, tolerance: Double = 1e-9) -> Bool {
  guard let a else { return false }
  return ((a - b) * (a - b)).sum().squareRoot() <= tolerance
}

@Suite struct DecoderTests {
  let absType = EventType.abs
  let msc = EventType.msc
  let key = EventType.key

  @Test func imuUnitsAndFrame() throws {
    var decoder = SampleDecoder(profile: .classify(FakeDevices.dualSense))
    var b = FrameBuilder()
    // Lying flat: +1 g on device y; turning about device y at 90 deg/s.
    let s = try required(
      decoder.decode(b.frame([(absType, 1, 8192), (absType, 4, 90 * 1024), (msc, 5, 1000)])))
    #expect(s.time == 0)
    #expect(close(s.acceleration, [0, 0, 1]))
    #expect(close(s.rotationRate, [0, 0, Double.pi / 2]))
    #expect(s.buttons.isEmpty)
  }

  @Test func unchangedAxesKeepTheirLastValue() throws {
    var decoder = SampleDecoder(profile: .classify(FakeDevices.tablet))
    var b = FrameBuilder()
    _ = decoder.decode(b.frame([(absType, 0, 256), (absType, 1, -256), (absType, 2, 128)]))
    let s = try required(decoder.decode(b.frame([(absType, 2, 256)])))
    #expect(close(s.acceleration, [1, -1, 1]))
    #expect(s.rotationRate == nil)
  }

  @Test func mscFrameWithNoAxisChangeIsStillASample() throws {
    var decoder = SampleDecoder(profile: .classify(FakeDevices.dualSense))
    var b = FrameBuilder()
    _ = decoder.decode(b.frame([(absType, 1, 8192), (msc, 5, 0)]))
    let s = try required(decoder.decode(b.frame([(msc, 5, 4000)])))
    #expect(s.time == 0.004)
    #expect(close(s.acceleration, [0, 0, 1]))
  }

  @Test func timeComesFromMscNotTheEventTime() throws {
    var decoder = SampleDecoder(profile: .classify(FakeDevices.dualSense))
    var b = FrameBuilder()
    _ = decoder.decode(b.frame([(msc, 5, 100)]))
    // Event times jitter (a burst arriving together); the device clock does not.
    let s1 = try required(decoder.decode(b.frame(after: 0, [(msc, 5, 3100)])))
    let s2 = try required(decoder.decode(b.frame(after: 0, [(msc, 5, 6100)])))
    #expect(s1.time == 0.003)
    #expect(s2.time == 0.006)
  }

  @Test func mscWrapsAt2To32() throws {
    var decoder = SampleDecoder(profile: .classify(FakeDevices.dualSense))
    var b = FrameBuilder()
    let before = Int32(bitPattern: UInt32.max - 1999)
    _ = decoder.decode(b.frame([(msc, 5, before)]))
    let s = try required(decoder.decode(b.frame([(msc, 5, 2000)])))
    #expect(s.time == 0.004)
    #expect(decoder.timestampWraps == 1)
    #expect(decoder.timestampResets == 0)
  }

  @Test func mscResetFallsBackToTheEventTime() throws {
    var decoder = SampleDecoder(profile: .classify(FakeDevices.dualSense))
    var b = FrameBuilder()
    _ = decoder.decode(b.frame([(msc, 5, 500_000_000)]))
    _ = decoder.decode(b.frame(after: 4000, [(msc, 5, 500_004_000)]))
    let reset = try required(decoder.decode(b.frame(after: 5000, [(msc, 5, 10)])))
    #expect(reset.time == 0.009)
    #expect(decoder.timestampResets == 1)
    let next = try required(decoder.decode(b.frame(after: 4000, [(msc, 5, 4010)])))
    #expect(next.time == 0.013)
    #expect(decoder.timestampWraps == 0)
  }

  @Test func eventTimeGoingBackwardsNeverMakesTimeDecrease() throws {
    var decoder = SampleDecoder(profile: .classify(FakeDevices.tablet))
    var b = FrameBuilder()
    let t0 = try required(decoder.decode(b.frame([(absType, 2, 256)]))).time
    let t1 = try required(decoder.decode(b.frame(after: -500_000, [(absType, 2, 255)]))).time
    let t2 = try required(decoder.decode(b.frame(after: 10_000, [(absType, 2, 254)]))).time
    #expect(t0 == 0)
    #expect(t1 == 0)
    #expect(t2 == 0.01)
  }

  @Test func buttonsOnlyFrameHasNoMotion() throws {
    var decoder = SampleDecoder(profile: .classify(FakeDevices.xboxPad))
    var b = FrameBuilder()
    let s = try required(decoder.decode(b.frame([(key, ButtonCode.east, 1)])))
    #expect(s.buttons == [ButtonChange(code: ButtonCode.east, pressed: true)])
    #expect(s.acceleration == nil)
    let r = try required(decoder.decode(b.frame([(key, ButtonCode.east, 0)])))
    #expect(r.buttons == [ButtonChange(code: ButtonCode.east, pressed: false)])
    #expect(decoder.decode(b.frame([(key, ButtonCode.east, 2)])) == nil)  // autorepeat
  }

  @Test func joystickFullDeflectionIsStickRange() throws {
    var decoder = SampleDecoder(profile: .classify(FakeDevices.xboxPad), stickRange: 30)
    var b = FrameBuilder()
    let s = try required(decoder.decode(b.frame([(absType, 0, 32767), (absType, 1, 0)])))
    let f = try #require(s.acceleration)
    let roll = atan2(-f.x, f.z) * 180 / .pi
    let pitch = atan2(f.y, (f.x * f.x + f.z * f.z).squareRoot()) * 180 / .pi
    #expect(abs(roll - 30) < 1e-9)
    #expect(abs(pitch) < 0.01)
    let back = try required(decoder.decode(b.frame([(absType, 0, 0), (absType, 1, 32767)])))
      .acceleration!
    let pitch2 = atan2(back.y, (back.x * back.x + back.z * back.z).squareRoot()) * 180 / .pi
    #expect(abs(pitch2 - 30) < 1e-9)  // toward the player: positive pitch
    let left = try required(decoder.decode(b.frame([(absType, 0, -32768), (absType, 1, 0)])))
      .acceleration!
    #expect(abs(atan2(-left.x, left.z) * 180 / .pi + 30) < 0.01)
  }

  @Test func joystickDeadZoneIsFlat() throws {
    var decoder = SampleDecoder(profile: .classify(FakeDevices.xboxPad))
    var b = FrameBuilder()
    // Centre of -32768...32767 is -0.5; flat is 128.
    let inside = try required(decoder.decode(b.frame([(absType, 0, 127), (absType, 1, -128)])))
    #expect(inside.acceleration == [-0.0, 0, 1] || close(inside.acceleration, [0, 0, 1]))
    let outside = try required(decoder.decode(b.frame([(absType, 0, 400)])))
    #expect(outside.acceleration!.x < 0)  // stick right → positive roll → fx < 0
    let half = try required(decoder.decode(b.frame([(absType, 0, 16448)])))
    let roll = atan2(-half.acceleration!.x, half.acceleration!.z) * 180 / .pi
    #expect(abs(roll - 22.5) < 0.01)
  }

  @Test func unsupportedDeviceGivesNoSamples() {
    var decoder = SampleDecoder(profile: .classify(FakeDevices.keyboard))
    var b = FrameBuilder()
    #expect(decoder.decode(b.frame([(key, 30, 1)])) == nil)
  }

  @Test(.needsSharedData("broad/broad02_window36-56s_as_dualsense_motion.evemu"))
  func broadRecordingDecodesToAboutOneG() throws {
    let path = try TestData.path("broad/broad02_window36-56s_as_dualsense_motion.evemu")
    let reader = try EvemuReader(path: path)
    var decoder = SampleDecoder(profile: .classify(reader.info))
    var count = 0
    var last = -1.0
    var first: DecodedSample?
    var lastSample: DecodedSample?
    while let frame = try reader.nextFrame() {
      guard let s = decoder.decode(frame) else { continue }
      if first == nil { first = s }
      #expect(s.time >= last)
      last = s.time
      let g = (s.acceleration! * s.acceleration!).sum().squareRoot()
      if g < 0.5 || g > 2 { Issue.record("implausible |a| = \(g) g at \(s.time) s") }
      lastSample = s
      count += 1
    }
    #expect(count == 5714)
    // The first report: ABS_X/Y/Z = 73, 34, 8156 → device (0.0089, 0.0042, 0.9956) g.
    #expect(close(first?.acceleration, [73.0 / 8192, -8156.0 / 8192, 34.0 / 8192]))
    // MSC_TIMESTAMP runs from 123456789 to 143452289 µs.
    #expect(abs((lastSample?.time ?? 0) - 19.9955) < 1e-9)
  }
}
