import Attitude

/// The card's lifecycle and its display clock: motion, buttons and keys in,
/// display frames out, with time always passed in (DESIGN: the two clocks).
///
/// Inputs carry times on the sample clock (seconds since the source's first
/// sample) and must come in time order; a time earlier than one already seen
/// counts as that later time. Every input first returns the display frames
/// due strictly before its time, then takes effect, so replaying the same
/// inputs always gives the same frames.
///
/// Display frames fall on a grid of `rate` Hz on the sample clock (times
/// `k / rate`) and are made only while something changes: a flip animating,
/// the tilt moving by more than `tiltEpsilon` since the last frame, or the
/// update state changing. At rest ``nextFrameTime`` is `nil`: nothing needs a
/// wake-up. With `everySample`, a frame is made at each motion sample's time
/// (and at each button, key or state change) instead, off the grid; while a
/// flip turns, a frame is also due one display period after the last one,
/// so that the flip animates when the device is silent.
public struct CardSession: Sendable {
  /// A command from the keyboard or the CLI.
  public enum Command: Hashable, Sendable {
    /// Flip the card (the space key); restarts stopped updates.
    case flip
    /// Counts as activity and restarts stopped updates; the reference itself
    /// is re-taken by whoever estimates the attitude.
    case recenter
    case startUpdates
    case stopUpdates
    /// Stop when active, start when stopped (the `p` key).
    case toggleUpdates
  }

  public let configuration: CardConfiguration
  /// Display frames per second.
  public let rate: Double
  /// One frame per motion sample instead of the display grid.
  public let everySample: Bool
  /// The key codes whose press flips the card when the trigger is `.button`:
  /// the device's primary buttons, as the device layer chooses them
  /// (SensorData's `Buttons.primary(among:)`); the card knows nothing of keys.
  public let flipButtons: Set<UInt16>

  public private(set) var state: UpdateState = .active
  /// Whether the card is flipped (or turning toward flipped).
  public private(set) var flipped = false
  /// The latest motion taken in while active.
  public private(set) var motion: DeviceMotion = .resting(at: 0)
  public private(set) var pose: CardPose = .flat
  /// Whether the last stop came from `idleStop`.
  public private(set) var stoppedForIdle = false

  private var flip: FlipAnimator
  private var turnover = TurnoverDetector()
  /// The latest time seen, from an input or an emitted frame.
  private var clock = 0.0
  /// The earliest time of a change not yet shown in a frame.
  private var dueSince: Double? = 0
  private var lastGridIndex: Int?
  private var shownPose: CardPose?
  private var idleAnchor: Attitude?
  private var lastActivity = 0.0

  /// A session that shows a first frame at time 0. Without `flipButtons`
  /// no button flips the card (any still restarts stopped updates).
  public init(
    configuration: CardConfiguration, rate: Double = CardConfiguration.defaultDisplayRateHz,
    everySample: Bool = false,
    flipButtons: Set<UInt16> = []
  ) {
    precondition(rate > 0 && rate.isFinite, "client bug: display rate must be positive")
    self.configuration = configuration
    self.rate = rate
    self.everySample = everySample
    self.flipButtons = flipButtons
    flip = FlipAnimator(configuration: configuration)
    if everySample { dueSince = nil }
  }

  /// Whether the motion device should be closed now (stopped, or never
  /// needed because reduce motion keeps the card still).
  public var shouldStopUpdates: Bool { state == .stopped || configuration.reduceMotion }

  /// When the next display frame is due (sample clock, seconds); `nil` when
  /// nothing moves and nothing has changed.
  public var nextFrameTime: Double? {
    guard let due = dueSince else { return nil }
    if everySample { return due }
    var index = Self.gridIndex(atOrAfter: due, rate: rate)
    if let last = lastGridIndex { index = max(index, last + 1) }
    return Double(index) / rate
  }

  /// When idle-stop will stop updates if nothing moves before; `nil` without
  /// `idleStop` or while stopped.
  public var idleDeadline: Double? {
    guard state == .active, let idle = configuration.idleStop, !configuration.reduceMotion
    else { return nil }
    return lastActivity + idle
  }

  /// The time a live loop should wake at with no input: the earlier of
  /// ``nextFrameTime`` and ``idleDeadline``; `nil` to sleep until input.
  public var nextWakeTime: Double? {
    switch (nextFrameTime, idleDeadline) {
    case (let f?, let i?): return min(f, i)
    case (let f?, nil): return f
    case (nil, let i?): return i
    case (nil, nil): return nil
    }
  }

  /// Takes in one motion value (ignored while stopped).
  public mutating func receive(_ newMotion: DeviceMotion) -> [CardFrame] {
    var out = advance(to: newMotion.timestamp)
    let t = clock
    guard state == .active else { return out }
    motion = newMotion
    pose = CardPose(attitude: newMotion.attitude, configuration: configuration)
    noteMotion(newMotion.attitude, at: t)
    if configuration.flipTrigger == .turnover,
      let faceDown = turnover.update(newMotion.attitude.quaternion), faceDown != flipped
    {
      setFlipped(faceDown, at: t)
    }
    if everySample {
      markDue(t)
    } else if shownPose.map({ pose.distance(to: $0) > configuration.tiltEpsilon }) ?? true {
      markDue(t)
    }
    out += emitDueEverySample(at: t)
    return out
  }

  /// A button went down (`code` is the evdev key code). Any button restarts
  /// stopped updates; one of ``flipButtons`` flips when the trigger is `.button`.
  public mutating func buttonPressed(code: UInt16, at time: Double) -> [CardFrame] {
    var out = advance(to: time)
    let t = clock
    noteActivity(at: t)
    if configuration.flipTrigger == .button, flipButtons.contains(code) {
      setFlipped(!flipped, at: t)
    }
    out += emitDueEverySample(at: t)
    return out
  }

  /// Carries out a key command at `time`.
  public mutating func perform(_ command: Command, at time: Double) -> [CardFrame] {
    var out = advance(to: time)
    let t = clock
    switch command {
    case .flip:
      noteActivity(at: t)
      setFlipped(!flipped, at: t)
    case .recenter, .startUpdates:
      noteActivity(at: t)
    case .stopUpdates:
      stop(at: t, forIdle: false)
    case .toggleUpdates:
      if state == .active { stop(at: t, forIdle: false) } else { noteActivity(at: t) }
    }
    out += emitDueEverySample(at: t)
    return out
  }

  /// The frames due at or before `time` (and any idle stop due by then):
  /// what a live loop calls when it wakes without input.
  public mutating func frames(upTo time: Double) -> [CardFrame] {
    let out = emitDue(before: time, inclusive: true)
    clock = max(clock, time)
    return out
  }

  /// Every frame still to come with no further input: the rest of a flip and
  /// any pending change. Call at the end of a replay.
  public mutating func finish() -> [CardFrame] {
    var out: [CardFrame] = []
    // An animation settles within seconds; the cap only guards against a bug.
    var budget = Int(rate * 60)
    while let next = nextFrameTime, budget > 0 {
      out += frames(upTo: next)
      budget -= 1
    }
    return out
  }

  // MARK: - Internals

  private mutating func advance(to time: Double) -> [CardFrame] {
    let t = time.isFinite ? max(time, clock) : clock
    let out = emitDue(before: t, inclusive: false)
    clock = max(clock, t)
    return out
  }

  private mutating func emitDueEverySample(at t: Double) -> [CardFrame] {
    everySample ? emitDue(before: t, inclusive: true) : []
  }

  private mutating func emitDue(before limit: Double, inclusive: Bool) -> [CardFrame] {
    func within(_ x: Double) -> Bool { inclusive ? x <= limit : x < limit }
    var out: [CardFrame] = []
    while true {
      let frameTime = nextFrameTime
      if let idle = idleDeadline, within(idle), frameTime.map({ idle < $0 }) ?? true {
        stop(at: max(idle, clock), forIdle: true)
        continue
      }
      guard let f = frameTime, within(f) else { break }
      out.append(emitFrame(at: f))
    }
    return out
  }

  private mutating func emitFrame(at t: Double) -> CardFrame {
    let angle = flip.angle(at: t)
    let frame = CardFrame(
      t: t, motion: motion, pose: pose, flipAngle: angle, flipped: flipped, state: state,
      configuration: configuration)
    shownPose = pose
    clock = max(clock, t)
    if !everySample { lastGridIndex = Self.gridIndex(atOrAfter: t, rate: rate) }
    // A flip under way needs frames even when no sample comes (a still
    // device sends none): with `everySample`, one display period on, unless
    // a sample makes one first.
    dueSince = flip.isSettled(at: t) ? nil : everySample ? t + 1 / rate : t
    return frame
  }

  private mutating func markDue(_ t: Double) {
    dueSince = min(dueSince ?? t, t)
  }

  private mutating func setFlipped(_ value: Bool, at t: Double) {
    flipped = value
    flip.retarget(value ? 180 : 0, at: t)
    markDue(t)
  }

  /// A button or key: activity that restarts stopped updates.
  private mutating func noteActivity(at t: Double) {
    lastActivity = t
    if state == .stopped {
      state = .active
      stoppedForIdle = false
      idleAnchor = nil
      markDue(t)
    }
  }

  private mutating func noteMotion(_ attitude: Attitude, at t: Double) {
    guard let anchor = idleAnchor else {
      idleAnchor = attitude
      return
    }
    let degrees = anchor.quaternion.angle(to: attitude.quaternion) * 180 / .pi
    if degrees > configuration.idleMotionThreshold {
      idleAnchor = attitude
      lastActivity = t
    }
  }

  private mutating func stop(at t: Double, forIdle: Bool) {
    guard state == .active else { return }
    state = .stopped
    stoppedForIdle = forIdle
    clock = max(clock, t)
    markDue(t)
  }

  /// The index of the first grid time at or after `t`, with a tolerance for
  /// times that are a grid time up to rounding.
  static func gridIndex(atOrAfter t: Double, rate: Double) -> Int {
    let x = t * rate
    let nearest = x.rounded()
    if abs(x - nearest) < 1e-6 { return Int(nearest) }
    return Int(x.rounded(.up))
  }
}
