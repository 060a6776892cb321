import Foundation
import SystemCalls
import Testing
import Tilt
import TiltCard

/// Stops, then starts, a paced replay at the wall times it is given, from
/// the loop like a key or the page's button.
private final class StopThenStart: LoopParticipant {
  let pipeline: TiltPipeline
  var stopAt: MonotonicInstant?
  var startAt: MonotonicInstant?

  init(pipeline: TiltPipeline) { self.pipeline = pipeline }

  var pollDescriptors: [Int32] { [] }
  var deadline: MonotonicInstant? { stopAt ?? startAt }
  func service(ready: Set<Int32>) throws {
    if let stop = stopAt, stop <= .now {
      stopAt = nil
      try pipeline.perform(.stopUpdates)
    } else if let start = startAt, start <= .now {
      startAt = nil
      try pipeline.perform(.startUpdates)
    }
  }
}

@Suite struct BehindStopTests {
  /// A busy machine leaves a paced replay behind the wall clock (here the
  /// sink stalls for 0.3 s mid-roll); a stop that comes then is placed at
  /// the recording's next sample, not at the wall clock's time, which the
  /// samples have not reached: the stopped frame shows the attitude of its
  /// own time, and the start continues from it without a jump. (A stop at
  /// the wall's time showed the attitude of 0.6 s of recording earlier,
  /// and the start frame jumped by the roll of those 0.6 s, about 12°:
  /// ServedReplayEndTests failed so on busy machines.)
  @Test func aStopWhileBehindShowsTheAttitudeOfItsTime() throws {
    let configuration = TiltConfiguration()
    var frames: [CardFrame] = []
    var stalled = false
    var control: StopThenStart?
    let source = try DemoMotionSource(configuration: configuration)
    let pipeline = TiltPipeline(
      configuration: configuration, hasGyroscope: source.capabilities.hasGyroscope,
      sink: FrameHandlerSink { shown in
        frames += shown
        // Mid-roll (the demo rolls from +23° to −25° between 2.7 s and 4.6 s).
        if !stalled, let last = shown.last, last.t >= 3.0 {
          stalled = true
          Thread.sleep(forTimeInterval: 0.3)
          control?.stopAt = .now
          control?.startAt = .now + .seconds(0.3)
        }
      })
    control = StopThenStart(pipeline: pipeline)
    try play(source, through: pipeline, speed: 2, participants: [try #require(control)])
    let stop = try #require(frames.firstIndex { $0.state == .stopped })
    let start = try #require(frames[stop...].firstIndex { $0.state == .active })
    let degrees = frames.map { $0.motion.attitude.roll * 180 / .pi }
    let step = zip(degrees, degrees.dropFirst()).map { abs($1 - $0) }.filter { $0 < 5 }.max() ?? 0
    let (held, resumed) = (degrees[stop], degrees[start])
    #expect(
      abs(held - degrees[stop - 1]) <= 3 * step,
      "the stopped frame at \(frames[stop].t) s shows roll \(held)°, the frame before \(degrees[stop - 1])°"
    )
    #expect(
      abs(resumed - held) <= 3 * step,
      "started again at \(frames[start].t) s with roll \(resumed)°, stopped with \(held)° (a step: \(step)°)"
    )
  }
}
