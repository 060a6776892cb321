import Attitude
import SensorData
import SystemCalls

/// A recording (or any ``MotionSource``) as a device: its steps held to the
/// wall clock at `speed` times real time, or taken as fast as they go
/// (`nil`, a few hundred a turn so that the loop hears its signals between).
///
/// Paced, a step is due at the end of its ``readInterval`` (a card's display
/// frame: the steps in between are taken together, and the loop wakes at
/// that rate, not the recording's). The recording's clock is the wall's,
/// never past the next step still to take: a command on a busy machine that
/// left the replay behind is not placed after samples not yet seen. Held
/// (``DeviceUse/holds``: updates stopped by a command), the clock waits and
/// goes on from where it stopped, without a jump; wake-ups that fall due
/// meanwhile are served at once, since the held clock would never reach them.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
public final class RecordingDevice: MotionDevice {
  /// Times real time; `nil`: as fast as it goes.
  public let speed: Double?
  public let path: String
  /// How many steps it has given, over every pass.
  public private(set) var playedItems = 0
  /// `--loop`: at the end the recording plays again from its start, its
  /// times going on as `loop` says; `nil` plays it once. The first pass's
  /// steps are kept as they are taken, compactly, and the next passes
  /// play from memory: the file is never read again, so a pass's end costs
  /// no more than any other step. Set it before the first step is taken; a
  /// pass with nothing to play ends it.
  public var loop: PassStart?
  /// Seconds of source time between one pass's end and the next one's start
  /// (``PassStart/afterTimeReached``).
  public var gapBetweenPasses = 0.0
  public var readInterval: Double?
  /// While true the clock does not start, nor goes on if nothing was played
  /// yet (a served replay waits for its first viewer); set it false and
  /// follow again to start.
  public var waitsToStart = false {
    didSet {
      if waitsToStart, playedItems == 0 { start = nil }
    }
  }
  public var waitsForReconnect = false
  public var onNote: (MotionNote) -> Void = { _ in }

  private var source: any MotionSource
  /// The next step, read ahead; `nil` at the end.
  private var next: MotionStep?
  private var offset = 0.0
  private var playedAtPassStart = 0
  /// The first pass's steps, kept while it plays when it loops.
  private var firstPass: RecordedSteps?
  /// The first pass's steps from memory, for every pass after it.
  private var passes: RecordedSteps.Playback?
  /// ``PassStart/oneStepAfterLastSample``: the latest step's time (`nil` at
  /// a pass's start: the step across two passes is not one), and the latest
  /// interval by which the time moved forward.
  private var lastTime: Double?
  private var lastStep = 0.01
  /// The wall time of source time 0, once the replay has started; it moves
  /// on by the time the recording was held.
  private var start: MonotonicInstant?
  private var heldSince: MonotonicInstant?
  /// The latest source time taken or served.
  private var reached = 0.0
  /// Steps a turn at full speed.
  private static let batchAtFullSpeed = 256

  /// Plays `source` at `speed`; `path` names it in notes and errors. A
  /// ``LoopedSource`` is played over and over, as its ``LoopedSource/passStart`` says.
  public init(_ source: any MotionSource, speed: Double?, path: String = "the recording") throws {
    if let looped = source as? LoopedSource {
      self.source = looped.source
      loop = looped.passStart
    } else {
      self.source = source
    }
    self.speed = speed
    self.path = path
    next = try self.source.next()
  }

  public var capabilities: MotionCapabilities { source.capabilities }
  public var deviceInfo: DeviceInfo? { nil }
  public var isOpen: Bool { false }
  public var isGone: Bool { false }
  public func finish() {}

  /// Whether its clock waits: not started yet, or held.
  private var isHeld: Bool { start == nil || heldSince != nil }

  /// Starts the clock at the first use, holds it while `use` holds.
  public func follow(_ use: DeviceUse) throws {
    guard let start else {
      if !use.holds, !waitsToStart { self.start = .now }
      return
    }
    if use.holds, heldSince == nil {
      heldSince = .now
    } else if !use.holds, let since = heldSince {
      self.start = start + since.duration(to: .now)
      heldSince = nil
    }
  }

  // MARK: The loop

  public var pollDescriptors: [Int32] { [] }

  /// When the next step falls due; now at the end, which is then to be read.
  public var deadline: MonotonicInstant? {
    guard !isHeld else { return nil }
    guard let next else { return .now }
    guard let speed, let start else { return .now }
    return start + .seconds(dueTime(of: next.time) / speed)
  }

  /// When a step at `t` is taken: at the end of its read interval.
  private func dueTime(of t: Double) -> Double {
    guard let interval = readInterval, interval > 0 else { return t }
    let x = t / interval
    return max(t, (abs(x - x.rounded()) < 1e-6 ? x.rounded() : x.rounded(.up)) * interval)
  }

  public func readSteps(ready: Set<Int32>) throws -> [MotionStep]? {
    guard let first = next else { return nil }
    guard !isHeld, let start else { return [] }
    let wall = speed.map { start.duration(to: .now).seconds * $0 } ?? .infinity
    // Locals in the loop: a replay at full speed takes hundreds a turn.
    var source = self.source
    defer { self.source = source }
    let offset = self.offset
    var reached = self.reached
    var items: [MotionStep] = []
    var upcoming: MotionStep? = first
    if loop != nil, passes == nil, playedItems == 0, firstPass == nil {
      firstPass = RecordedSteps()
    }
    let tracksSteps = loop == .oneStepAfterLastSample
    while let item = upcoming, dueTime(of: item.time) <= wall,
      items.count < Self.batchAtFullSpeed
    {
      items.append(item)
      firstPass?.append(item)
      if tracksSteps {
        if let lastTime, item.time > lastTime { lastStep = item.time - lastTime }
        lastTime = item.time
      }
      reached = max(reached, item.time)
      if var following = try source.next() {
        following.time += offset
        upcoming = following
      } else {
        upcoming = nil
      }
    }
    next = upcoming
    self.reached = reached
    playedItems += items.count
    return items
  }

  public func nextPass() throws -> Bool {
    guard let loop, playedItems > playedAtPassStart else { return false }
    if passes == nil {
      guard let steps = firstPass else { return false }
      passes = steps.playback(as: source)
      firstPass = nil
    }
    guard let passes else { return false }
    source = passes
    playedAtPassStart = playedItems
    next = try source.next()
    switch loop {
    case .afterTimeReached:
      offset = reached + gapBetweenPasses
    case .oneStepAfterLastSample:
      // As the times were read: the last one plus the step, less the pass's start.
      offset = (lastTime ?? 0) + lastStep
      offset -= next?.time ?? 0
      lastTime = nil
    }
    next?.time += offset
    return true
  }

  // MARK: The clock

  /// The wall's source time, never past the next step; at full speed
  /// nothing falls due by the clock (a step shows what is due by its time).
  public func now() -> Double {
    // Nothing falls due before the clock starts.
    guard let speed, let start else { return -.infinity }
    guard heldSince == nil else { return .infinity }
    let wall = start.duration(to: .now).seconds * speed
    return max(reached, min(wall, next?.time ?? wall))
  }

  public func handOutNow() -> Double {
    guard let speed, let start else { return reached }
    let wall = start.duration(to: heldSince ?? .now).seconds * speed
    return max(reached, min(wall, next?.time ?? wall))
  }

  /// At once while held (the held clock would never reach `t`), never at
  /// full speed (a step shows what is due by its time).
  public func wakeDelay(until t: Double) -> Double? {
    guard let speed, let start else { return nil }
    if heldSince != nil { return t > reached ? 0 : nil }
    return max(0, MonotonicInstant.now.duration(to: start + .seconds(t / speed)).seconds)
  }

  public func timeOfWake(_ t: Double) -> Double {
    reached = max(reached, t)
    return t
  }
}
