import Attitude
import Evdev
import Motion
import SystemCalls
import TiltCard

/// A live motion device and the tilt card, shaped like `CMMotionManager`.
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
  /// A note for the person using the device.
  public enum Note: Hashable, Sendable, CustomStringConvertible {
    /// The motion node went away; `waiting` when ``waitsForReconnect``.
    case deviceWentAway(path: String, waiting: Bool)
    /// The device came back at `path`.
    case deviceIsBack(path: String)
    /// udev's `ACCEL_MOUNT_MATRIX` (or an IIO driver's `mount_matrix`) could
    /// not be read and is ignored (a system bug).
    case ignoredUdevMountMatrix(IgnoredMountMatrix)
    /// The fusion starts from the gyroscope bias stored for the device.
    case startsFromStoredGyroscopeBias(StoredGyroBias)
    /// The stored gyroscope bias could not be read or written (it is not used).
    case storedGyroscopeBiasProblem(StoreError)
    /// The kernel's buffer for the motion node overflowed (`SYN_DROPPED`):
    /// samples were lost and the state was read afresh. Said once a run.
    case eventsDropped(path: String)

    public var description: String {
      switch self {
      case .deviceWentAway(let path, false):
        return "\(path) went away (unplugged?); set waitsForReconnect to wait for it to come back."
      case .deviceWentAway(let path, true):
        return "\(path) went away; waiting for it to come back."
      case .deviceIsBack(let path): return "\(path) is back."
      case .ignoredUdevMountMatrix(let ignored): return ignored.description
      case .startsFromStoredGyroscopeBias(let stored):
        let b = stored.biasDegreesPerSecond
        return "starting from the stored gyroscope bias (\(stored.origin.rawValue)): "
          + "\(b.x.formatted3), \(b.y.formatted3), \(b.z.formatted3) deg/s"
      case .storedGyroscopeBiasProblem(let error): return error.description
      case .eventsDropped(let path):
        return "the kernel dropped events from \(path) before they were read (the machine was "
          + "too busy?); the card went on from the device's state"
      }
    }
  }

  /// Where notes go; stderr by default, with control characters in the
  /// device's names and paths shown as escapes (``TerminalText``).
  public var onNote: (Note) -> Void = { note in
    try? Syscall.writeAll(
      StandardDescriptor.error, Array("tilt: \(TerminalText.escaped("\(note)"))\n".utf8))
  }
  /// True once ``Note/eventsDropped(path:)`` has been said.
  private var saidEventsDropped = false
  /// The motion node in use (it changes when the device comes back elsewhere).
  public private(set) var devicePath: String
  public let deviceInfo: DeviceInfo
  public let profile: DeviceProfile
  /// The node with the buttons of the same device, when they are on another node.
  public private(set) var buttonPath: String?

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
  public var isDeviceOpen: Bool { motion != nil }

  private var motion: LiveDevice?
  private var buttons: LiveDevice?
  /// True while the button node is closed because updates are stopped.
  private var buttonsClosedForStop = false
  private var decoder: SampleDecoder
  private var clock = LiveClock()
  private var vanishWatch: DeviceWatch?
  private var pendingFrames: [Frame] = []
  private var handler: ((DeviceMotion) -> Void)?
  private var lastHandlerTime: Double?
  private var ended: Ending?
  /// With display frames, the motion node is read once a display frame;
  /// `readAgainAt` is when, while it is left unread (not polled).
  private var batching: ReadBatching
  private var readAgainAt: MonotonicInstant?

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
    let devicePath = try devicePath ?? DeviceChoice.firstMotionDevice()
    self.configuration = configuration
    self.waitsForReconnect = waitsForReconnect
    if let onNote { self.onNote = onNote }
    self.devicePath = devicePath
    let device = try LiveDevice(path: devicePath)
    // The kernel queues 64 events or so for a reader (a few milliseconds of a
    // fast IMU): read what arrives while setting up, so none is dropped.
    var early = try device.readFrames()
    deviceInfo = device.info
    let note = self.onNote
    let warn = { (ignored: IgnoredMountMatrix) in note(.ignoredUdevMountMatrix(ignored)) }
    let udevMatrix =
      configuration.mountMatrix != nil
      ? nil
      : DeviceSetup.udevMountMatrix(
        UdevProperties.accelMountMatrix(forDevicePath: devicePath), device: devicePath, warn: warn)
    profile = try DeviceSetup.profile(
      for: device.info, configuration: configuration, device: devicePath, udevMatrix: udevMatrix)
    decoder = SampleDecoder(profile: profile, stickRange: configuration.stickRangeDegrees)
    batching = ReadBatching(displayRateHz: configuration.displayRateHz)
    early += try device.readFrames()
    let nodes = DeviceScanner.scan(
      directory: DeviceChoice.inputDirectory, known: [devicePath: device.info])
    let paired = nodes.first { $0.path == devicePath }?.pairedButtonPath
    buttonPath = paired
    let pairedButtons = nodes.first { $0.path == paired }?.info
    early += try device.readFrames()
    pipeline = TiltPipeline(
      configuration: configuration, hasGyroscope: profile.gyroAxes != nil,
      buttons: DeviceSetup.buttons(profile: profile, pairedButtons: pairedButtons),
      accelerometerRange: profile.accelerometerRange, gyroscopeRange: profile.gyroscopeRange,
      sink: try makeSink(device.info))
    early += try device.readFrames()
    // Under reduce motion a node that only reports motion stays closed.
    if configuration.card.reduceMotion && profile.buttons.isEmpty {
      device.close()
    } else {
      motion = device
      pendingFrames = early
    }
    if let buttonPath { buttons = try? LiveDevice(path: buttonPath) }
    if profile.gyroAxes != nil, let store = configuration.gyroBiasStore {
      do throws(StoreError) {
        if let stored = try store.load(for: deviceInfo) {
          pipeline.manager.seedGyroscopeBias(stored.estimate)
          self.onNote(.startsFromStoredGyroscopeBias(stored))
        }
      } catch {
        self.onNote(.storedGyroscopeBiasProblem(error))
      }
    }
    pipeline.currentTime = { [unowned self] in clock.handOutNow() }
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
  public var pollDescriptors: [Int32] {
    var fds: [Int32] = []
    if let fd = motion?.fileDescriptor, readAgainAt == nil { fds.append(fd) }
    if let fd = buttons?.fileDescriptor { fds.append(fd) }
    if let watch = vanishWatch { fds.append(watch.fileDescriptor) }
    return fds
  }

  /// When a display frame or the idle stop is due, or the motion node is to
  /// be read again while it moves; `nil` at rest: nothing wakes the loop but
  /// the device.
  public var deadline: MonotonicInstant? {
    if !pendingFrames.isEmpty { return .now }
    let frame = pipeline.session.nextWakeTime.map {
      MonotonicInstant.now + .seconds(clock.wallDelay(until: $0))
    }
    return [frame, readAgainAt].compactMap { $0 }.min()
  }

  /// Whether the motion node is read once a display frame rather than at
  /// each sample: with display frames, and no handler at every sample.
  private var readsInBatches: Bool {
    !configuration.everySample
      && (handler == nil || deviceMotionUpdateInterval >= batching.frameInterval)
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
    if !pendingFrames.isEmpty {
      try take(pendingFrames)
      pendingFrames = []
    }
    let mine = ready.intersection(pollDescriptors)
    let batchDue = readAgainAt.map { $0 <= .now } ?? false
    if let device = motion, mine.contains(device.fileDescriptor) || batchDue {
      try readMotion(device)
    }
    if let device = buttons, mine.contains(device.fileDescriptor) {
      try readButtons(device)
    }
    if let watch = vanishWatch, mine.contains(watch.fileDescriptor) {
      try reconnect(watch)
    }
    if mine.isEmpty, let wake = pipeline.session.nextWakeTime, wake <= clock.now() {
      // A display frame or the idle stop is due, and the device is silent.
      try pipeline.advance(to: clock.handOutNow())
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
    let loop = try EventLoop(handling: signals)
    defer { loop.end() }
    return try run(on: loop)
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
    let devices = LiveDeviceParticipant(
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

  /// What `device` has; `nil` when it went away (it is closed then).
  private func read(_ device: LiveDevice) throws -> [Frame]? {
    do {
      return try device.readFrames()
    } catch let error {
      guard case .vanished = error else { throw error }
      device.close()
      return nil
    }
  }

  /// Reads what the motion node has.
  private func readMotion(_ device: LiveDevice) throws {
    if let frames = try read(device) {
      // Left unread for a while after a batch; polled again once it is quiet.
      readAgainAt = nil
      if readsInBatches, !frames.isEmpty {
        batching.learn(from: frames)
        readAgainAt = .now + .seconds(batching.delay)
      }
      try take(frames)
      if device.droppedCount > 0 && !saidEventsDropped {
        saidEventsDropped = true
        onNote(.eventsDropped(path: devicePath))
      }
      return
    }
    motion = nil
    readAgainAt = nil
    guard waitsForReconnect else {
      onNote(.deviceWentAway(path: devicePath, waiting: false))
      ended = .deviceWentAway
      return
    }
    onNote(.deviceWentAway(path: devicePath, waiting: true))
    vanishWatch = try DeviceWatch(directory: DeviceChoice.inputDirectory)
  }

  /// Motion frames into the pipeline. A resync frame is the device's state
  /// after SYN_DROPPED: after an overflow it is all there is of the final
  /// position, so it is a sample too.
  private func take(_ frames: [Frame]) throws {
    for frame in frames {
      guard let sample = decoder.decode(frame) else { continue }
      var item = sample.item
      item.time = clock.sourceTime(forSample: item.time)
      try feed(item)
    }
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

  private func readButtons(_ device: LiveDevice) throws {
    guard let frames = try read(device) else {
      buttons = nil
      return
    }
    let now = clock.handOutNow()
    for frame in frames {
      let pressed = Buttons.pressed(in: frame, buttons: Buttons.codes(of: device.info))
      if !pressed.isEmpty {
        try feed(SourceItem(time: now, motion: nil, pressedButtons: pressed))
      }
    }
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
    let wantNode = wantMotion || wantButtons
    if !wantNode, let device = motion {
      device.close()
      motion = nil
      readAgainAt = nil
      // What the first open read ahead belongs to that open: a reopen's
      // decoder starts again with the reopen's own events.
      pendingFrames = []
    } else if wantNode, motion == nil, vanishWatch == nil, ended == nil {
      motion = try LiveDevice(path: devicePath)
      decoder = SampleDecoder(profile: profile, stickRange: configuration.stickRangeDegrees)
      clock.restartSamples()
    }
    followLifecycleOfButtons()
  }

  /// The paired button node: closed while stopped unless ``buttonsStartUpdates``.
  private func followLifecycleOfButtons() {
    let closes = state == .stopped && !buttonsStartUpdates
    if closes, let device = buttons {
      device.close()
      buttons = nil
      buttonsClosedForStop = true
    } else if !closes, buttonsClosedForStop {
      buttonsClosedForStop = false
      buttons = buttonPath.flatMap { try? LiveDevice(path: $0) }
    }
  }

  /// With reconnect: the device is back when a node with its name and id appears.
  private func reconnect(_ watch: DeviceWatch) throws {
    guard watch.changed() else { return }
    let back = DeviceScanner.scan(directory: DeviceChoice.inputDirectory).first {
      $0.info?.name == deviceInfo.name && $0.info?.id == deviceInfo.id
    }
    guard let back, let device = try? LiveDevice(path: back.path) else { return }
    onNote(.deviceIsBack(path: back.path))
    devicePath = back.path
    motion = device
    // The pad's other nodes came back with it, under new names.
    buttons?.close()
    buttonPath =
      DeviceScanner.scan(directory: DeviceChoice.inputDirectory, known: [back.path: device.info])
      .first { $0.path == back.path }?.pairedButtonPath
    buttons = buttonPath.flatMap { try? LiveDevice(path: $0) }
    buttonsClosedForStop = false
    decoder = SampleDecoder(profile: profile, stickRange: configuration.stickRangeDegrees)
    clock.restartSamples()
    vanishWatch = nil
  }
}

extension Double {
  fileprivate var formatted3: String {
    let scaled = (self * 1000).rounded() / 1000
    return "\(scaled)"
  }
}
