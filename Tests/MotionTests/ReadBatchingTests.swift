import SensorData
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

  /// A writer that fell behind hands the kernel a few samples at once (VM
  /// scenario 35: two frames 0.4 ms apart at the start of a 250 Hz stream):
  /// that burst is not the device's rate, and the node is still read about
  /// once a display frame, not every 1.6 ms.
  @Test func aBurstIsNotTakenForTheRate() {
    var batching = ReadBatching(displayRateHz: 60)
    var us: Int64 = 0
    for _ in 0..<10 {
      batching.learn(from: (0..<4).map { Self.frame(at: us + Int64($0) * 4000) })
      us += 16_000
    }
    batching.learn(from: [Self.frame(at: us), Self.frame(at: us + 400)])
    #expect(batching.delay > 0.012, "after a burst: \(batching.delay)")
    var startsWithABurst = ReadBatching(displayRateHz: 60)
    startsWithABurst.learn(from: [Self.frame(at: 0), Self.frame(at: 400), Self.frame(at: 800)])
    for _ in 0..<10 {
      us += 16_000
      startsWithABurst.learn(from: (0..<4).map { Self.frame(at: us + Int64($0) * 4000) })
    }
    #expect(startsWithABurst.delay > 0.012, "a burst first: \(startsWithABurst.delay)")
  }
}
