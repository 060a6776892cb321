import Foundation
import Testing
import Tilt
import TiltCard

/// Counts the turns of the loop it joins: the loop asks every participant for
/// its descriptors once a turn.
private final class TurnCounter: LoopParticipant {
  var turns = 0
  var pollDescriptors: [Int32] {
    turns += 1
    return []
  }
  var deadline: MonotonicInstant? { nil }
  func service(ready: Set<Int32>) throws {}
}

@Suite struct PacedWakeUpTests {
  /// A paced replay with display frames wakes for the display frames, not
  /// for every sample: the demo's 3000 samples (12 s at 250 Hz) take fewer
  /// turns than samples (about one a display frame, 60 a second of
  /// recording: 720); on main it took one or more a sample (3000+). The
  /// frames are those of a replay at full speed, with `--every-sample` too
  /// (which still waits for each sample's time).
  @Test(arguments: [false, true])
  func aPacedReplayWakesAtTheDisplayRate(everySample: Bool) throws {
    var configuration = TiltConfiguration()
    configuration.everySample = everySample
    var batched: [CardFrame] = []
    let source = try DemoMotionSource(configuration: configuration)
    let pipeline = TiltPipeline(
      configuration: configuration, hasGyroscope: source.capabilities.hasGyroscope,
      sink: FrameHandlerSink { batched += $0 })
    let counter = TurnCounter()
    let player = try play(source, through: pipeline, speed: 8, participants: [counter])
    #expect((player.recording?.playedItems ?? 0) >= 3000)
    if !everySample {
      #expect(counter.turns < (player.recording?.playedItems ?? 0) / 2, "\(counter.turns) turns")
    }
    // The same frames as at full speed.
    var full: [CardFrame] = []
    let again = TiltPipeline(
      configuration: configuration, hasGyroscope: source.capabilities.hasGyroscope,
      sink: FrameHandlerSink { full += $0 })
    try play(try DemoMotionSource(configuration: configuration), through: again, speed: nil)
    #expect(batched == full)
  }
}
