import Motion
import Testing

/// The live loop's clock, on a wall clock the test moves.
@Suite struct LiveClockTests {
  final class Wall {
    var seconds = 100.0
  }

  @Test func theFirstOpensSamplesKeepTheKernelsTimes() {
    let wall = Wall()
    var clock = LiveClock(wall: { wall.seconds })
    wall.seconds += 2  // the device is silent for 2 s after the open
    #expect(clock.sourceTime(forSample: 0) == 0)
    #expect(clock.sourceTime(forSample: 0.01) == 0.01)
  }

  /// A flip pressed before a silent accelerometer's first report animates on
  /// timer frames; the first sample must not be placed before them, or the
  /// card's clock stands still until the samples catch up.
  @Test func aFirstSampleIsNeverPlacedBeforeATimeHandedOut() {
    let wall = Wall()
    var clock = LiveClock(wall: { wall.seconds })
    #expect(clock.handOutNow() == 0)  // the card's first frame
    wall.seconds += 3
    let flip = clock.handOutNow()
    #expect(abs(flip - (3 - LiveClock.margin)) < 1e-9)
    wall.seconds += 1
    let first = clock.sourceTime(forSample: 0)
    #expect(first >= flip)
    #expect(abs(clock.sourceTime(forSample: 0.25) - (first + 0.25)) < 1e-9)
  }

  /// The setup between the clock's creation and the first frame (opening
  /// nodes, starting a server: tens of milliseconds) is not the source's
  /// time: the first frame and the first sample are both at 0 (contract §1.7: seconds
  /// since the first sample), and wall time counts from there.
  @Test func theSetupIsNotTheSourcesTime() {
    let wall = Wall()
    var clock = LiveClock(wall: { wall.seconds })
    wall.seconds += 0.08
    #expect(clock.now() == 0)
    #expect(clock.handOutNow() == 0)
    clock.restartSamples()
    wall.seconds += 0.004
    #expect(clock.sourceTime(forSample: 0) == 0)
    wall.seconds += 0.5
    #expect(abs(clock.now() - (0.5 - LiveClock.margin)) < 1e-9)
  }

  /// A reopened device's decoder counts from zero: its samples continue
  /// from the reopen at their own spacing.
  @Test func aReopensSamplesContinueFromTheReopen() {
    let wall = Wall()
    var clock = LiveClock(wall: { wall.seconds })
    for i in 0...100 {
      wall.seconds += 0.01
      _ = clock.sourceTime(forSample: Double(i) / 100)
    }
    wall.seconds += 8  // closed while nobody watched
    let start = clock.handOutNow()
    clock.restartSamples()
    wall.seconds += 0.5
    let first = clock.sourceTime(forSample: 0)
    #expect(abs(first - start) < 1e-9)
    #expect(abs(clock.sourceTime(forSample: 0.5) - (start + 0.5)) < 1e-9)
    #expect(start > 8.9)
  }

  @Test func timeNeverGoesBack() {
    let wall = Wall()
    var clock = LiveClock(wall: { wall.seconds })
    _ = clock.sourceTime(forSample: 0)
    _ = clock.sourceTime(forSample: 1)
    #expect(clock.sourceTime(forSample: 0.5) == 1)
  }

  /// A display frame due 10 ms after the latest sample: ``LiveClock/now()``
  /// reaches it 10 ms plus the margin after that sample came, and the loop
  /// sleeps until then. Before, it slept 10 ms, found nothing due and slept
  /// again: a wake-up for nothing (VM scenario 35: 86 a second on a 250 Hz IMU).
  @Test func theWallDelayReachesTheFrame() {
    let wall = Wall()
    var clock = LiveClock(wall: { wall.seconds })
    _ = clock.sourceTime(forSample: 1.0)
    let frame = 1.01
    let delay = clock.wallDelay(until: frame)
    #expect(abs(delay - (0.01 + LiveClock.margin)) < 1e-9)
    wall.seconds += delay
    #expect(clock.now() >= frame - 1e-9)
    wall.seconds -= 0.001
    #expect(clock.now() < frame)
    #expect(abs(clock.wallDelay(until: frame) - 0.001) < 1e-9)
    #expect(clock.wallDelay(until: 0.5) == 0)
  }
}
