import EvdevCore
import Motion
import Testing

@Suite struct ReadBatchingTests {
  /// An IMU frame: 6 axes, MSC_TIMESTAMP, SYN_REPORT at `us` microseconds.
  static func frame(at us: Int64) -> Frame {
    let time = EventTime(seconds: us / 1_000_000, microseconds: us % 1_000_000)
    var events = (0..<7).map { InputEvent(time: time, type: 3, code: UInt16($0), value: 0) }
    events.append(InputEvent(time: time, type: 0, code: 0, value: 0))
    return Frame(events: events)
  }

  /// With 60 Hz frames a 250 Hz IMU is read about once a display frame (the
  /// kernel's 64 events hold 8 of its frames, 32 ms: half is 16 ms); a
  /// 1 kHz one every 4 ms, before its queue could fill; a device not yet
  /// measured is taken to be fast.
  @Test func aNodeIsReadOnceAFrameButBeforeTheKernelsQueueFills() {
    var slow = ReadBatching(displayRateHz: 60)
    #expect(slow.delay <= 0.004 + 1e-9, "unknown rate: \(slow.delay)")
    slow.learn(from: (0..<4).map { Self.frame(at: Int64($0) * 4000) })
    #expect(abs(slow.delay - 0.016) < 1e-9, "250 Hz: \(slow.delay)")
    var fast = ReadBatching(displayRateHz: 60)
    fast.learn(from: (0..<16).map { Self.frame(at: Int64($0) * 1000) })
    #expect(abs(fast.delay - 0.004) < 1e-9, "1 kHz: \(fast.delay)")
    var joystick = ReadBatching(displayRateHz: 60)
    joystick.learn(
      from: (0..<3).map {
        Frame(events: Array(Self.frame(at: Int64($0) * 100_000).events.suffix(2)))
      })
    #expect(abs(joystick.delay - 1.0 / 60) < 1e-9, "a slow small-frame node: \(joystick.delay)")
    #expect(ReadBatching.maximumDelay < LiveClock.margin)
  }
}
