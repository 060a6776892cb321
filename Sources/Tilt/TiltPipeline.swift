import Attitude
import Motion
import SensorData
import TiltCard

/// The chain after the source: Attitude's `MotionManager`, then the card,
/// then the sink. Every step takes the source's time; nothing here reads a
/// clock, so a replay gives the same frames at any speed.
///
/// The manager is used the Core Motion way: each motion it makes feeds the
/// card, its updates start and stop with the card's lifecycle, and its
/// update handler is the app's (``motionHandler``), throttled by the
/// manager's `deviceMotionUpdateInterval`.
///
/// Not thread-safe (not `Sendable`): use it from one thread.
public final class TiltPipeline {
  public let configuration: TiltConfiguration
  /// The attitude estimator and filter.
  public let manager: MotionManager
  /// The card: pose, flip, lifecycle, display clock.
  public private(set) var session: CardSession
  public let sink: FrameSink
  /// Called with each frame as it is shown, after the sink.
  public var frameObservers: [(CardFrame) -> Void] = []
  /// Called with each motion the manager makes, before the card takes it.
  public var motionObservers: [(DeviceMotion) -> Void] = []
  /// The app's handler: the manager's update handler, one motion per its
  /// `deviceMotionUpdateInterval`.
  public var motionHandler: ((DeviceMotion) -> Void)?
  /// The time of the source now (seconds), for keys and commands that come
  /// from outside the source; the loop that drives the pipeline sets it.
  public var currentTime: () -> Double = { 0 }
  /// Set by ``requestEnd()``: the loop driving the pipeline ends at its next turn.
  public private(set) var endRequested = false

  /// Keeps the motion state (fusion, filter, reference) across updates
  /// stopped by a command rather than starting a new one: a paced replay
  /// that holds its recording while stopped continues without a jump
  /// (``TiltMotionManager`` on a paced recording). An idle stop still starts afresh.
  public var keepsMotionSessionWhileStopped = false

  private var fromManager: [CardFrame] = []

  /// The pipeline for a source or device of `capabilities`
  /// (``MotionSource/capabilities``, ``MotionDevice/capabilities``).
  public convenience init(
    configuration: TiltConfiguration, capabilities: MotionCapabilities, sink: FrameSink
  ) {
    self.init(
      configuration: configuration, hasGyroscope: capabilities.hasGyroscope,
      buttons: capabilities.keyCodes, accelerometerRange: capabilities.accelerometerRange,
      gyroscopeRange: capabilities.gyroscopeRange, sink: sink)
  }

  /// `buttons` are the key codes of the source's device
  /// (``MotionCapabilities/keyCodes``): its primary button flips the card
  /// (`Buttons.primary(among:)`); `nil` when they are not known, for contract
  /// §3.6's `BTN_SOUTH` and `BTN_TRIGGER`. `accelerometerRange` and
  /// `gyroscopeRange` are the source's (``MotionCapabilities``): the fusion
  /// does not take clipped readings for gravity, and starts its low-pass
  /// afresh after a saturated turn.
  public init(
    configuration: TiltConfiguration, hasGyroscope: Bool, buttons: Set<UInt16>? = nil,
    accelerometerRange: Double? = nil, gyroscopeRange: Double? = nil, sink: FrameSink
  ) {
    self.configuration = configuration
    var motion = configuration.motion
    if let accelerometerRange { motion.fusionParameters.accelerometerRange = accelerometerRange }
    if let gyroscopeRange { motion.fusionParameters.gyroscopeRange = gyroscopeRange }
    manager = MotionManager(configuration: motion, hasGyroscope: hasGyroscope)
    session = CardSession(
      configuration: configuration.card, rate: configuration.displayRateHz,
      everySample: configuration.everySample,
      flipButtons: buttons.map(Buttons.primary(among:)) ?? Buttons.specPrimary
    )
    self.sink = sink
    startMotionUpdates()
  }

  /// Takes one step of a source: its buttons, then its motion.
  public func take(_ item: MotionStep) throws {
    // The frames of the buttons first; most steps have none, and their
    // motion's frames are shown as the manager made them, without a copy.
    var frames: [CardFrame] = []
    for code in item.pressedButtons {
      frames += session.buttonPressed(code: code, at: item.time)
    }
    if let sample = item.motion {
      if let motion = manager.process(sample) {
        for observer in motionObservers { observer(motion) }
        fromManager += session.receive(motion)
      }
      if frames.isEmpty {
        swap(&frames, &fromManager)
      } else {
        frames += fromManager
        fromManager = []
      }
    }
    try show(frames)
  }

  /// The display frames due up to `time` with no new input.
  public func advance(to time: Double) throws {
    try show(session.frames(upTo: time))
  }

  /// A command (a key, a button of a remote, a server request) at `time`.
  public func perform(_ command: CardSession.Command, at time: Double) throws {
    if command == .recenter { manager.recenter() }
    try show(session.perform(command, at: time))
  }

  /// A command now (at ``currentTime``).
  public func perform(_ command: CardSession.Command) throws {
    try perform(command, at: currentTime())
  }

  /// Asks the loop driving the pipeline to end (a quit key, a server's request).
  public func requestEnd() { endRequested = true }

  /// The rest of any animation, then the end of the output.
  public func finish() throws {
    try show(session.finish())
    try sink.finish()
  }

  private func show(_ frames: [CardFrame]) throws {
    if !frames.isEmpty {
      try sink.show(frames)
      for observer in frameObservers { frames.forEach(observer) }
    }
    followSession()
  }

  private func startMotionUpdates() {
    manager.startDeviceMotionUpdates { [unowned self] motion in motionHandler?(motion) }
  }

  /// Motion updates follow the card's lifecycle: stopped while the card is.
  private func followSession() {
    let keeps = keepsMotionSessionWhileStopped && !session.stoppedForIdle
    if session.state == .stopped, manager.isDeviceMotionActive, !keeps {
      manager.stopDeviceMotionUpdates()
    } else if session.state == .active, !manager.isDeviceMotionActive {
      startMotionUpdates()
    }
  }
}
