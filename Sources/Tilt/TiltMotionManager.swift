import Attitude
import Evdev
import Motion
import SystemCalls
import TiltCard

/// A live motion device and the tilt card, shaped like `CMMotionManager`.
/// (Motion alone, without a card, is the Motion library's `DeviceMotionManager`;
/// this class is the card on the same `LiveMotionDevice`.)
///
/// It opens the device (a path, or the first motion device found) with its
/// paired button node, applies the mount matrix (the configuration's, else
/// udev's), and runs samples through Attitude's `MotionManager` into the card.
/// Updates are active once it is made, as the card's are.
///
/// - Push: ``startDeviceMotionUpdates(handler:)`` calls the handler with each
///   ``Attitude/DeviceMotion``, or one per ``deviceMotionUpdateInterval``.
/// - Pull: read ``deviceMotion`` whenever you like.
/// - ``stopDeviceMotionUpdates()`` closes the motion node and the paired
///   button node (no descriptor, no wake-ups); starting reopens them. The
///   card stops and starts with it.
///
/// What wakes stopped updates is the caller's policy,
/// ``buttonsStartUpdates``: by default only the app does
/// (``startDeviceMotionUpdates(handler:)``, ``perform(_:)``), and a button
/// pressed while stopped is ignored. With it `true` (as `tilt-cli live` sets
/// it) the nodes that carry the device's buttons stay open while stopped, and
/// a press starts the updates and the card again, as a key does.
///
/// The live loop is reusable: an app with its own event loop watches
/// ``pollDescriptors`` until ``deadline`` and calls ``service(ready:)``; a
/// simple app calls ``run(endingOn:)``, which sleeps in the kernel at rest. Other
/// ``LoopParticipant``s (a server, the terminal's keys) join ``run(endingOn:)``'s
/// `poll()` through ``participants``.
///
/// Not thread-safe (not `Sendable`): use it from one thread.
public final class TiltMotionManager: LoopParticipant {
  /// Why ``run(endingOn:)`` ended.
  public enum Ending: Hashable, Sendable {
    /// SIGINT or SIGTERM, or ``TiltPipeline/requestEnd()`` (a quit key).
    case requested
    /// The device went away and ``waitsForReconnect`` is false.
    case deviceWentAway
  }

  public let configuration: TiltConfiguration
  public let pipeline: TiltPipeline
  /// What shares ``run(endingOn:)``'s `poll()`.
  public var participants: [any LoopParticipant] = []
  /// When the device goes away, wait for a node with its name and id to come
  /// back instead of ending.
  public var waitsForReconnect: Bool
  /// A note for the person using the device (Motion's ``MotionNote``).
  public typealias Note = MotionNote

  /// Where notes go; stderr by default, with control characters in the
  /// device's names and paths shown as escapes (``TerminalText``).
  public var onNote: (Note) -> Void = { note in
    try? Syscall.writeAll(
      StandardDescriptor.error, Array("tilt: \(TerminalText.escaped("\(note)"))\n".utf8))
  }
  /// The motion node in use (it changes when the device comes back elsewhere).
  public var devicePath: String { device.path }
  public var deviceInfo: DeviceInfo { device.info }
  public var profile: DeviceProfile { device.profile }
  /// The node with the buttons of the same device, when they are on another node.
  public var buttonPath: String? { device.buttonPath }
  /// The device under the card: its nodes, clock and reading (Motion).
  public let device: LiveMotionDevice

  /// Whether a button pressed while updates are stopped (by
  /// ``stopDeviceMotionUpdates()``, a command or the idle stop) starts them
  /// again. `false` by default: stopped means stopped, the motion node and
  /// the paired button node are closed and a press is ignored. `true` keeps
  /// the nodes with the device's buttons open while stopped, so that a press
  /// wakes the card.
  public var buttonsStartUpdates = false

  /// Seconds of sample time between handler calls; 0 calls it for every sample.
  public var deviceMotionUpdateInterval = 0.0
  /// False only when gyroscope fusion is forced on a device without one.
  public var isDeviceMotionAvailable: Bool { pipeline.manager.isDeviceMotionAvailable }
  /// True while updates run (the card is active).
  public var isDeviceMotionActive: Bool { pipeline.session.state == .active }
  /// The latest motion, for callers that poll.
  public var deviceMotion: DeviceMotion? { pipeline.manager.deviceMotion }
  /// The card's state: `active` or `stopped`.
  public var state: UpdateState { pipeline.session.state }
  /// Whether the motion node is open now.
  public var isDeviceOpen: Bool { device.isMotionNodeOpen }

  private var handler: ((DeviceMotion) -> Void)?
  private var lastHandlerTime: Double?
  private var ended: Ending?

  /// Opens `devicePath`, or the first motion device found; frames go to `sink`.
  public convenience init(
    devicePath: String? = nil, configuration: TiltConfiguration = .init(),
    sink: FrameSink = FrameHandlerSink { _ in }, waitsForReconnect: Bool = false,
    onNote: ((Note) -> Void)? = nil
  ) throws {
    try self.init(
      devicePath: devicePath, configuration: configuration, makeSink: { _ in sink },
      waitsForReconnect: waitsForReconnect, onNote: onNote)
  }

  /// Opens `devicePath`, or the first motion device found; `makeSink` is
  /// called once the device is open and can drive the card (a terminal view
  /// starts only then; an HTML page takes the device's name as its title).
  public init(
    devicePath: String? = nil, configuration: TiltConfiguration = .init(),
    makeSink: (DeviceInfo) throws -> FrameSink, waitsForReconnect: Bool = false,
    onNote: ((Note) -> Void)? = nil
  ) throws {
    self.configuration = configuration
    self.waitsForReconnect = waitsForReconnect
    if let onNote { self.onNote = onNote }
    let note = self.onNote
    device = try LiveMotionDevice(
      path: devicePath, configuration: configuration.deviceMotion,
      waitsForReconnect: waitsForReconnect, onNote: { note($0) })
    pipeline = TiltPipeline(
      configuration: configuration, hasGyroscope: device.profile.gyroAxes != nil,
      buttons: device.buttons, accelerometerRange: device.profile.accelerometerRange,
      gyroscopeRange: device.profile.gyroscopeRange, sink: try makeSink(device.info))
    // Under reduce motion a node that only reports motion stays closed.
    try device.follow(
      motionNode: !(configuration.card.reduceMotion && device.profile.buttons.isEmpty),
      buttonNode: true)
    pipeline.manager.seedGyroscopeBias(
      from: configuration.gyroBiasStore, for: deviceInfo, onNote: self.onNote)
    device.onNote = { [unowned self] in self.onNote($0) }
    pipeline.currentTime = { [unowned self] in device.handOutNow() }
    pipeline.motionObservers.append { [unowned self] motion in deliver(motion) }
  }

  // MARK: Core Motion

  /// Starts updates (the card too) and calls `handler` with each motion, or
  /// one per ``deviceMotionUpdateInterval``. Reopens a closed device.
  public func startDeviceMotionUpdates(handler: ((DeviceMotion) -> Void)? = nil) throws {
    self.handler = handler
    lastHandlerTime = nil
    if state == .stopped { try perform(.startUpdates) }
  }

  /// Stops updates and the card, and closes the motion node.
  public func stopDeviceMotionUpdates() throws {
    handler = nil
    if state == .active { try perform(.stopUpdates) }
  }

  /// Makes the next attitude the reference (with ``ReferenceMode/start``).
  public func recenter() throws { try perform(.recenter) }

  /// Flips the card.
  public func flip() throws { try perform(.flip) }

  /// A card command now; the device follows the card's lifecycle.
  public func perform(_ command: CardSession.Command) throws {
    try pipeline.perform(command)
    try afterTurn()
  }

  /// Calls `observer` with each card frame as it is shown.
  public func observeFrames(_ observer: @escaping (CardFrame) -> Void) {
    pipeline.frameObservers.append(observer)
  }

  private func deliver(_ motion: DeviceMotion) {
    guard let handler else { return }
    if let last = lastHandlerTime, deviceMotionUpdateInterval > 0,
      motion.timestamp - last < deviceMotionUpdateInterval, motion.timestamp >= last
    {
      return
    }
    lastHandlerTime = motion.timestamp
    handler(motion)
  }

  // MARK: The loop

  /// The motion and button nodes, and while waiting for the device to come
  /// back, the watch on the input directory.
  public var pollDescriptors: [Int32] { device.pollDescriptors }

  /// When a display frame or the idle stop is due, or the motion node is to
  /// be read again while it moves; `nil` at rest: nothing wakes the loop but
  /// the device.
  public var deadline: MonotonicInstant? {
    let frame = pipeline.session.nextWakeTime.map {
      MonotonicInstant.now + .seconds(device.wallDelay(until: $0))
    }
    return [frame, device.deadline].compactMap { $0 }.min()
  }

  /// Whether the motion node is read once a display frame rather than at
  /// each sample: with display frames, and no handler at every sample.
  private var readsInBatches: Bool {
    let frameInterval = 1 / configuration.displayRateHz
    return !configuration.everySample
      && (handler == nil || deviceMotionUpdateInterval >= frameInterval)
  }

  /// Reads what is ready, shows the frames that are due. Throws when the
  /// device went away and ``waitsForReconnect`` is false (``run(endingOn:)`` returns
  /// ``Ending/deviceWentAway`` instead).
  public func service(ready: Set<Int32>) throws {
    try serviceDevices(ready: ready)
    if ended == .deviceWentAway {
      throw TiltError.deviceGone(path: devicePath)
    }
  }

  private func serviceDevices(ready: Set<Int32>) throws {
    device.waitsForReconnect = waitsForReconnect
    device.batchInterval = readsInBatches ? 1 / configuration.displayRateHz : nil
    let mine = ready.intersection(pollDescriptors)
    for item in try device.read(ready: ready) { try feed(item) }
    if device.isGone { ended = .deviceWentAway }
    if mine.isEmpty, let wake = pipeline.session.nextWakeTime, wake <= device.now() {
      // A display frame or the idle stop is due, and the device is silent.
      try pipeline.advance(to: device.handOutNow())
    }
    try afterTurn()
  }

  /// Runs the loop until one of `signals` (SIGINT and SIGTERM by default),
  /// ``TiltPipeline/requestEnd()``, or the device going away without
  /// ``waitsForReconnect``; then finishes the output. The signals' handlers
  /// are installed for the run only: what was there before is put back.
  @discardableResult
  public func run(endingOn signals: Set<EventLoop.Signal> = [.interrupt, .terminate]) throws
    -> Ending
  {
    try EventLoop.running(handling: signals) { try run(on: $0) }
  }

  /// Runs on `loop` (with its participants and signals) until SIGINT or
  /// SIGTERM if it handles them, ``EventLoop/requestEnd()`` (from any
  /// thread), ``TiltPipeline/requestEnd()``, or the device going away without
  /// ``waitsForReconnect``; then finishes the output. SIGWINCH redraws.
  @discardableResult
  public func run(on loop: EventLoop) throws -> Ending {
    let ending: Ending
    do {
      ending = try turns(of: loop)
    } catch {
      try? pipeline.sink.finish()
      throw error
    }
    try pipeline.finish()
    storeGyroscopeBias()
    return ending
  }

  /// Keeps what the fusion learned of the gyroscope's bias for the next
  /// start, when a rest of this run confirmed it and the configuration has a
  /// ``TiltConfiguration/gyroBiasStore``; ``run(endingOn:)`` does it at its end.
  public func storeGyroscopeBias() {
    pipeline.storeGyroscopeBias(
      in: configuration.gyroBiasStore, for: deviceInfo, onNote: onNote)
  }

  private func turns(of loop: EventLoop) throws -> Ending {
    let devices = ClosureParticipant(
      descriptors: { [unowned self] in pollDescriptors },
      deadline: { [unowned self] in deadline },
      service: { [unowned self] ready in try serviceDevices(ready: ready) })
    try serviceDevices(ready: [])
    return try pipeline.liveTurns(
      on: loop, device: devices, participants: { participants }, ended: { ended },
      afterTurn: { try afterTurn() })
  }

  /// What every turn ends with: the output flushed, the device following the card.
  private func afterTurn() throws {
    try pipeline.sink.flush()
    try followLifecycle()
  }

  /// One step into the pipeline. Without ``buttonsStartUpdates`` a press
  /// while stopped is dropped (a batch read can hold a press after the stop).
  private func feed(_ item: SourceItem) throws {
    var item = item
    if !buttonsStartUpdates, !item.pressedButtons.isEmpty {
      // An idle stop due by the press's time comes before the press.
      try pipeline.advance(to: item.time)
      if state == .stopped { item.pressedButtons = [] }
    }
    try pipeline.take(item)
  }

  /// Stopped means closed: no descriptor, no wake-ups (SPEC §5). With
  /// ``buttonsStartUpdates`` the nodes that carry the buttons stay open while
  /// stopped, since a button is what starts the card again; motion from the
  /// motion node is ignored until then.
  private func followLifecycle() throws {
    let wantMotion = !pipeline.session.shouldStopUpdates
    // A node that also carries the buttons stays open while they are heard:
    // when they start stopped updates (``buttonsStartUpdates``), and while
    // they flip a card that reduce motion keeps still (SPEC §5).
    let wantButtons =
      !profile.buttons.isEmpty
      && (buttonsStartUpdates || (configuration.card.reduceMotion && state == .active))
    // The paired button node: closed while stopped unless ``buttonsStartUpdates``.
    try device.follow(
      motionNode: wantMotion || wantButtons,
      buttonNode: state == .active || buttonsStartUpdates)
  }
}
