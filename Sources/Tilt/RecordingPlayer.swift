import Motion
import SystemCalls
import TiltCard

/// Plays a recording through a pipeline: as fast as it goes, or held to the
/// wall clock at some speed. The frames are the same at any speed: they run on
/// the recording's clock.
///
/// While it waits for the wall clock, a paced replay sleeps in its
/// ``loop``'s `poll()`, which its ``participants`` join (a terminal's keys, an
/// HTTP server). A signal the loop handles ends the replay (SIGWINCH
/// redraws), as does ``EventLoop/requestEnd()``; a replay at full speed
/// glances at the loop now and then for them, when it was given one.
///
/// Updates stopped by a command (`p`, the page's stop, no viewer left) hold
/// the recording too (SPEC §3): its clock waits with the card, the motion
/// session is kept, and starting again continues at the time it stopped,
/// without a jump. An idle stop (`--idle-stop`) does not hold it: the
/// recording's motion is what starts the card again.
///
/// Not thread-safe (not `Sendable`): use it from one thread.
public final class RecordingPlayer {
  public let pipeline: TiltPipeline
  /// What shares the paced replay's `poll()`.
  public var participants: [any LoopParticipant] = []
  /// The loop to wait in, with the signals it handles; `nil`: a loop of the
  /// replay's own that handles none (and none at full speed).
  public var loop: EventLoop?
  /// How many samples and button changes the last ``play(_:speedFactor:)``
  /// took from its sources (every pass of a loop).
  public private(set) var playedItems = 0
  /// `--loop`: at the end of a paced replay, the source to play next (the
  /// recording again, from its start); its times go on from the last frame's.
  /// A pass with nothing to play ends the loop.
  public var again: (() throws -> any MotionSource)?
  /// A paced replay that reaches its end keeps serving its participants,
  /// the keys and the display clock until a signal or an end request
  /// (a served replay: the page keeps its last frame).
  public var holdsAtEnd = false
  /// Called once when a paced replay has reached the end of its recording
  /// and of the card's animation, with the source time of that end (seconds).
  public var onEnd: ((Double) -> Void)?

  public init(pipeline: TiltPipeline) { self.pipeline = pipeline }

  /// Replays `source` at `speed` times real time, or as fast as it goes with
  /// `nil`. Ends at the end of the recording (and, when paced, of the card's
  /// animation), or early on a signal or ``TiltPipeline/requestEnd()``.
  public func play(_ source: any MotionSource, speedFactor speed: Double?) throws {
    var source = source
    playedItems = 0
    let ownLoop = loop == nil && speed != nil ? try EventLoop() : nil
    defer { ownLoop?.end() }
    let pacer = try speed.map {
      try Pacer(speed: $0, pipeline: pipeline, participants: participants, loop: loop ?? ownLoop!)
    }
    let glancer =
      speed == nil
      ? loop.map { Glancer(loop: $0, pipeline: pipeline, participants: participants) } : nil
    // A paced replay holds the motion session while it holds the recording.
    pipeline.keepsMotionSessionWhileStopped = pacer != nil
    defer { pipeline.keepsMotionSessionWhileStopped = false }
    var offset = 0.0
    var end = 0.0
    do {
      while true {
        let before = playedItems
        while var item = try source.next() {
          item.time += offset
          guard try pacer?.wait(forSampleAt: item.time) ?? glancer?.goOn() ?? true else {
            return try pipeline.sink.finish()
          }
          try pipeline.take(item)
          playedItems += 1
          end = max(end, item.time)
          pacer?.reached(item.time)
        }
        guard let pacer else { break }
        // The rest of an animation, at its pace too; it settles within seconds.
        var budget = Int(pipeline.configuration.displayRateHz * 60)
        while let t = pipeline.session.nextFrameTime, budget > 0 {
          guard try pacer.wait(until: t) else { return try pipeline.sink.finish() }
          try pipeline.advance(to: t)
          pacer.reached(t)
          end = max(end, t)
          budget -= 1
        }
        guard let again, playedItems > before else { break }
        source = try again()
        // The next pass starts one display frame after this one ended.
        offset = end + 1 / pipeline.configuration.displayRateHz
      }
      if let pacer {
        onEnd?(end)
        if holdsAtEnd {
          _ = try pacer.wait(until: .infinity)
          return try pipeline.sink.finish()
        }
      }
    } catch {
      try? pipeline.sink.finish()
      throw error
    }
    try pipeline.finish()
  }
}

/// At full speed, looks at the loop every few hundred items, so that a
/// signal, an end request, the keys and the page are heard without a wait.
final class Glancer {
  let loop: EventLoop
  let pipeline: TiltPipeline
  let participants: [any LoopParticipant]
  private var count = 0

  init(loop: EventLoop, pipeline: TiltPipeline, participants: [any LoopParticipant]) {
    self.loop = loop
    self.pipeline = pipeline
    self.participants = participants
  }

  /// False when the replay should end.
  func goOn() throws -> Bool {
    count += 1
    guard count % 256 == 0 else { return !pipeline.endRequested }
    let others = loop.participants
    defer { loop.participants = others }
    loop.participants = others + participants
    for event in try loop.glance() {
      switch event {
      case .signal(.windowChange): try pipeline.sink.redraw()
      case .signal, .endRequested: return false
      }
    }
    return !pipeline.endRequested
  }
}

/// Holds a replay to the wall clock at some speed, serving the participants
/// and the signals while it waits.
final class Pacer {
  let speed: Double
  let pipeline: TiltPipeline
  let participants: [any LoopParticipant]
  let loop: EventLoop
  /// The wall time of source time 0; it moves on by the time the recording
  /// was held.
  private var start = MonotonicInstant.now
  /// The latest source time reached.
  private var now = 0.0
  /// When the current hold began, while updates are stopped by a command.
  private var heldSince: MonotonicInstant?
  /// The time of the sample being waited for, while one is.
  private var nextSample: Double?

  init(
    speed: Double, pipeline: TiltPipeline, participants: [any LoopParticipant], loop: EventLoop
  ) throws {
    self.speed = speed
    self.pipeline = pipeline
    self.participants = participants
    self.loop = loop
    // A command (a key, the page) happens at the wall clock's time, but not
    // past the next sample still to take: when a busy machine left the replay
    // behind, a stop at the wall's time would show an attitude older than its
    // time, and the start would jump by the samples in between.
    pipeline.currentTime = { [unowned self] in
      let wall = start.duration(to: heldSince ?? .now).seconds * speed
      return max(now, min(wall, nextSample ?? wall))
    }
  }

  /// Source time `t` has been taken.
  func reached(_ t: Double) { now = max(now, t) }

  /// Waits for a sample at source time `t`. With display frames (not
  /// `everySample`) nothing shows a sample before the display frame after
  /// it, so the wait is until that frame's time: the samples in between are
  /// taken together, and the loop wakes at the display rate, not the
  /// recording's (a 250 Hz recording with 60 Hz frames: ~60 wake-ups a
  /// second instead of ~310). The frames are the same.
  func wait(forSampleAt t: Double) throws -> Bool {
    nextSample = t
    defer { nextSample = nil }
    if pipeline.configuration.everySample { return try wait(until: t) }
    let rate = pipeline.configuration.displayRateHz
    let x = t * rate
    let frame = (abs(x - x.rounded()) < 1e-6 ? x.rounded() : x.rounded(.up)) / rate
    return try wait(until: max(t, frame))
  }

  /// Whether the recording waits: updates stopped, and not by the idle stop.
  private var holds: Bool {
    pipeline.session.state == .stopped && !pipeline.session.stoppedForIdle
  }

  /// Starts or ends a hold as the card's state says.
  private func followHold() {
    if holds, heldSince == nil {
      heldSince = .now
    } else if !holds, let since = heldSince {
      start = start + since.duration(to: .now)
      heldSince = nil
    }
  }

  /// When the latest turn of the loop looked at the descriptors.
  private var lastTurn = MonotonicInstant(nanoseconds: .min)

  /// The wall time of source time `t`; `nil` for an infinite `t`.
  private func wallTime(of t: Double) -> MonotonicInstant? {
    t.isFinite ? start + .seconds(t / speed) : nil
  }

  /// One turn of the loop with the participants, until `deadline`; false on
  /// a signal that ends the replay or an end request.
  private func turn(until deadline: MonotonicInstant?) throws -> Bool {
    let others = loop.participants
    defer { loop.participants = others }
    loop.participants = others + participants
    let events = try loop.turn(until: deadline).events
    lastTurn = .now
    for event in events {
      switch event {
      case .signal(.windowChange): try pipeline.sink.redraw()
      case .signal, .endRequested: return false
      }
    }
    return !pipeline.endRequested
  }

  /// Sleeps until source time `t` is due on the wall clock; false when the
  /// replay should end (a signal, or a participant asked). Display frames
  /// and the idle stop that fall due before `t` are shown at their time, as
  /// live: a card stopped, flipped or recentered between two samples (or
  /// while stopped, when no sample reaches it) is drawn when it happens.
  /// While updates are stopped the recording waits: `t` is not due until
  /// they start again. `t` may be infinite: serve until the end is asked.
  func wait(until t: Double) throws -> Bool {
    // What is made is written before the loop sleeps: a reader on a pipe sees
    // each frame when it is due, not in bursts.
    try pipeline.sink.flush()
    while !pipeline.endRequested {
      followHold()
      let due = pipeline.session.nextWakeTime.flatMap { $0 < t && $0 >= now ? $0 : nil }
      var wake: MonotonicInstant?
      if heldSince != nil {
        // Held, the sample waits for a start; a frame due meanwhile (the
        // stopped frame, on the display grid just after the stop) is shown
        // now, since the held clock would never reach it.
        // (It may fall after `t`: the sample is not taken before it anyway.)
        if let due = pipeline.session.nextWakeTime.flatMap({ $0 >= now ? $0 : nil }) {
          try pipeline.advance(to: due)
          reached(due)
          try pipeline.sink.flush()
          if let next = pipeline.session.nextWakeTime, next <= due {
            // Nothing more to show while held: wait for the start.
          } else {
            continue
          }
        }
      } else {
        wake = wallTime(of: due ?? t)
        if let wake, wake <= .now {
          // Due already (a slow parser or a busy machine): the keys and the
          // page are still heard, without a wait, before the sample is taken.
          guard let due else {
            // (Not again for each sample of a batch: once after it was due.)
            if wake > lastTurn {
              guard try turn(until: .now - .seconds(1)) else { return false }
            }
            followHold()
            if heldSince == nil { return true }
            continue
          }
          try pipeline.advance(to: due)
          reached(due)
          try pipeline.sink.flush()
          if let next = pipeline.session.nextWakeTime, next <= due { return true }
          continue
        }
      }
      guard try turn(until: wake) else { return false }
      try pipeline.sink.flush()
    }
    return false
  }
}
