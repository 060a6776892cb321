import Glibc
import SystemCalls
import TiltCard

/// Plays a recording through a pipeline: as fast as it goes, or held to the
/// wall clock at some speed. The frames are the same at any speed: they run on
/// the recording's clock.
///
/// While it waits for the wall clock, a paced replay sleeps in one `poll()`
/// that its ``participants`` join (a terminal's keys, an HTTP server), and it
/// turns SIGINT and SIGTERM into the end of the replay, SIGWINCH into a redraw.
public final class RecordingPlayer {
  public let pipeline: TiltPipeline
  /// What shares the paced replay's `poll()`.
  public var participants: [any LoopParticipant] = []
  /// How many samples and button changes the last ``play(_:speedFactor:)``
  /// took from its source.
  public private(set) var playedItems = 0

  public init(pipeline: TiltPipeline) { self.pipeline = pipeline }

  /// Replays `source` at `speed` times real time, or as fast as it goes with
  /// `nil`. Ends at the end of the recording (and, when paced, of the card's
  /// animation), or early on a signal or ``TiltPipeline/requestEnd()``.
  public func play(_ source: any MotionSource, speedFactor speed: Double?) throws {
    var source = source
    playedItems = 0
    let pacer = try speed.map {
      try Pacer(speed: $0, pipeline: pipeline, participants: participants)
    }
    do {
      while let item = try source.next() {
        guard try pacer?.wait(until: item.time) ?? true else { return try pipeline.sink.finish() }
        try pipeline.take(item)
        playedItems += 1
        pacer?.reached(item.time)
      }
      if let pacer {
        // The rest of an animation, at its pace too; it settles within seconds.
        var budget = Int(pipeline.configuration.displayRateHz * 60)
        while let t = pipeline.session.nextFrameTime, budget > 0 {
          guard try pacer.wait(until: t) else { return try pipeline.sink.finish() }
          try pipeline.advance(to: t)
          pacer.reached(t)
          budget -= 1
        }
      }
    } catch {
      try? pipeline.sink.finish()
      throw error
    }
    try pipeline.finish()
  }
}

/// Holds a replay to the wall clock at some speed, serving the participants
/// and the signals while it waits.
final class Pacer {
  let speed: Double
  let pipeline: TiltPipeline
  let participants: [any LoopParticipant]
  let signals: SignalPipe
  let start = monotonicSeconds()
  /// The latest source time reached.
  private var now = 0.0

  init(speed: Double, pipeline: TiltPipeline, participants: [any LoopParticipant]) throws {
    self.speed = speed
    self.pipeline = pipeline
    self.participants = participants
    signals = try SignalPipe()
    pipeline.currentTime = { [unowned self] in
      max(now, (monotonicSeconds() - start) * speed)
    }
  }

  /// Source time `t` has been taken.
  func reached(_ t: Double) { now = max(now, t) }

  /// Sleeps until source time `t` is due on the wall clock; false when the
  /// replay should end (a signal, or a participant asked). Display frames
  /// and the idle stop that fall due before `t` are shown at their time, as
  /// live: a card stopped, flipped or recentered between two samples (or
  /// while stopped, when no sample reaches it) is drawn when it happens.
  func wait(until t: Double) throws -> Bool {
    // What is made is written before the loop sleeps: a reader on a pipe sees
    // each frame when it is due, not in bursts.
    try pipeline.sink.flush()
    while !pipeline.endRequested {
      let due = pipeline.session.nextWakeTime.flatMap { $0 < t && $0 >= now ? $0 : nil }
      let left = start + (due ?? t) / speed - monotonicSeconds()
      if left <= 0 {
        guard let due else { return true }
        try pipeline.advance(to: due)
        reached(due)
        try pipeline.sink.flush()
        if let next = pipeline.session.nextWakeTime, next <= due { return true }
        continue
      }
      let turn = ParticipantTurn(participants)
      let timeout = turn.deadline.map { min(left, max(0, $0 - monotonicSeconds())) } ?? left
      let ready = try Poller.wait(
        for: [signals.fileDescriptor] + turn.descriptors, timeout: timeout)
      if ready.contains(signals.fileDescriptor) {
        for signal in signals.drain() {
          if signal == SIGWINCH { try pipeline.sink.redraw() } else { return false }
        }
      }
      try turn.serve(ready: ready)
      try pipeline.sink.flush()
    }
    return false
  }
}
