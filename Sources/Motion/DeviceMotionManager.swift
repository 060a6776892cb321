import Attitude
import Foundation
import IIO
import SystemCalls

/// The one manager of device motion: it owns a ``MotionDevice`` (an evdev
/// node, an IIO sensor, a recording), its lifecycle and its loop, and feeds
/// a ``MotionProcessor``: Attitude's motion alone (``MotionUpdates``, shaped
/// like `CMMotionManager`), or a consumer such as Tilt's card.
///
/// ```swift
/// let manager = DeviceMotionManager(.device(path: nil))
/// guard manager.isDeviceMotionAvailable else { return }
/// manager.deviceMotionUpdateInterval = 0.1
/// try manager.startDeviceMotionUpdates { motion in print(motion.attitude.roll) }
/// try manager.run()  // until Ctrl-C
/// ```
///
/// Made from a ``MotionInput``, nothing is opened before the first
/// ``startDeviceMotionUpdates(handler:)``. ``stopDeviceMotionUpdates()``
/// closes the device's motion node at once (no descriptor, no wake-ups) or
/// holds the recording; what stays open while stopped is the ``policy``'s
/// (by default nothing: a button pressed while stopped reaches nothing).
///
/// A live device's samples are read once an update interval (not at each
/// sample, never so late that the kernel's queue could overflow) unless the
/// interval is 0. With ``waitsForReconnect`` a device that goes away is waited
/// for (hot-plug); without it ``run(endingOn:)`` throws ``MotionError/deviceGone(path:)``.
///
/// Not thread-safe (not `Sendable`): use it from one thread; the handler runs
/// on the thread that runs the loop.
public final class DeviceMotionManager: LoopParticipant, LoopRunning {
  /// What happens to the updates and the device, the same for every kind
  /// of device: for an app that follows them (a service, a test).
  public enum LifecycleEvent: Hashable, Sendable {
    /// Updates started (the device opened, or a recording's clock runs).
    case started
    /// Updates stopped (the device closed, or a recording held).
    case stopped
    /// The device went away and is waited for (``waitsForReconnect``).
    case waitingForDevice
    /// The device waited for is back.
    case deviceBack
    /// Nothing more will come: a recording's end, or a device gone without
    /// ``waitsForReconnect``.
    case ended
  }

  /// Why ``run(endingOn:)`` ended.
  public enum Ending: Hashable, Sendable {
    /// A signal the loop handles, ``requestEnd()``, or the processor's end request.
    case requested
    /// The recording has no more samples.
    case recordingEnded
  }

  public let input: MotionInput
  public let configuration: DeviceMotionConfiguration
  /// Seconds of sample time between handler calls; 0 calls it for every
  /// sample. Attitude's `MotionManager` of the processor throttles the
  /// handler (the one place); a live device read by Attitude alone is then
  /// read once an interval.
  public var deviceMotionUpdateInterval = 0.0 {
    didSet { applyInterval() }
  }
  /// When the live device goes away, wait for a node with its name and id to
  /// come back instead of ending.
  public var waitsForReconnect = false {
    didSet { device?.waitsForReconnect = waitsForReconnect }
  }
  /// Where notes go (a device gone or back, the stored bias); stderr by default.
  public var onNote: (MotionNote) -> Void = MotionNote.toStandardError
  /// What shares ``run(endingOn:)``'s `poll()`.
  public var participants: [any LoopParticipant] = []
  /// What stays open while stopped, and what is read while running.
  public var policy = DevicePolicy() {
    didSet { try? followProcessor() }
  }
  /// A paced recording that reaches its end keeps serving the loop (its
  /// participants, the processor's wake-ups) until a signal or an end request.
  public var holdsAtEnd = false
  /// Called once when a paced recording has reached its end and the
  /// processor has settled, with the source time of that end.
  public var onRecordingEnd: ((Double) -> Void)?
  /// Called with each ``LifecycleEvent``, on the loop's thread.
  public var onLifecycle: (LifecycleEvent) -> Void = { _ in }
  /// Whether the device may be read this turn: an async consumer that paces
  /// a replay at full speed says no while it has no room, and wakes the loop
  /// when it has (``UpdateStop``). A device or a paced replay is always read.
  package var readsWhen: () -> Bool = { true }

  /// The device, once opened.
  public private(set) var device: (any MotionDevice)?
  /// What the device's steps go through, once the device is open.
  public private(set) var processor: (any MotionProcessor)?
  /// The handler of ``startDeviceMotionUpdates(handler:)`` when the processor is Attitude's alone.
  private var updates: MotionUpdates? { processor as? MotionUpdates }
  private var ended: Ending?
  private var gone = false
  private var endRequested = false
  private var reportedEnd = false
  /// Whether the processor's updates ran at the latest follow.
  private var wasActive = false
  /// The device is a recording that has nothing more (it may play again).
  private var deviceEnded = false

  /// Motion from `input`; nothing is opened until updates start.
  public init(
    _ input: MotionInput = .device(path: nil), configuration: DeviceMotionConfiguration = .init()
  ) {
    self.input = input
    self.configuration = configuration
  }

  /// `device`, already open, feeding `processor` (a consumer's, made for
  /// the device); the device follows the processor's state at once.
  public init(
    device: any MotionDevice, processor: any MotionProcessor,
    configuration: DeviceMotionConfiguration = .init(), policy: DevicePolicy = .init(),
    onNote: ((MotionNote) -> Void)? = nil
  ) throws {
    let path = device.path
    input = .source(speed: nil) { throw MotionError.deviceGone(path: path) }
    self.configuration = configuration
    self.policy = policy
    if let onNote { self.onNote = onNote }
    adopt(device, processor: processor)
    try followProcessor()
  }

  // MARK: Core Motion

  /// Whether updates can start: before the first start, whether the device
  /// named (or a motion device) or the recording is there; after it, false
  /// only when gyroscope fusion is forced on a device without one.
  public var isDeviceMotionAvailable: Bool {
    if let manager = processor?.motionManager { return manager.isDeviceMotionAvailable }
    switch input {
    case .device(let path?), .recording(let path, _):
      return FileManager.default.isReadableFile(atPath: path)
    case .device(nil): return DeviceChoice.firstMotionDeviceIfAny() != nil
    case .source: return true
    }
  }

  /// True between ``startDeviceMotionUpdates(handler:)`` and ``stopDeviceMotionUpdates()``.
  public var isDeviceMotionActive: Bool { processor?.isActive ?? false }
  /// The latest motion, for callers that poll; kept after a stop.
  public var deviceMotion: DeviceMotion? { processor?.motionManager?.deviceMotion }
  /// The live evdev device, once opened; `nil` for an IIO IMU or a recording.
  public var evdevDevice: LiveMotionDevice? { device as? LiveMotionDevice }
  /// The live IIO IMU, once opened.
  public var iioDevice: IIOMotionDevice? { device as? IIOMotionDevice }
  /// Whether a live device's node is open now.
  public var isDeviceOpen: Bool { device?.isOpen ?? false }

  /// Opens the source (the first time) or reopens the device, and calls
  /// `handler` with each motion, or one per ``deviceMotionUpdateInterval``.
  /// With a consumer's processor (a card) the handler gets the motion its
  /// fusion makes, and the consumer's updates start.
  public func startDeviceMotionUpdates(handler: ((DeviceMotion) -> Void)? = nil) throws {
    if device == nil { try open() }
    processor?.motionHandler = handler
    try processor?.start()
    try followProcessor()
  }

  /// Stops updates and closes the device's motion node at once (a recording
  /// is held where it is). Samples of a batch already read are dropped.
  public func stopDeviceMotionUpdates() throws {
    processor?.motionHandler = nil
    try processor?.stop()
    try followProcessor()
  }

  /// Makes the next attitude the reference (with ``ReferenceMode/start``).
  public func recenter() { try? processor?.recenter() }

  /// Asks ``run(endingOn:)`` to end at its next turn (from the loop's thread).
  public func requestEnd() { endRequested = true }

  /// Makes the device follow the processor's state now (after a command the
  /// processor took outside the loop): open, closed or held as ``policy`` says.
  public func followProcessor() throws {
    guard let device, let processor else { return }
    let active = processor.isActive
    try device.follow(policy.use(active: active, stoppedForIdle: processor.isStoppedForIdle))
    if active != wasActive {
      wasActive = active
      // After ``LifecycleEvent/ended`` nothing more is said (closing at the end is no stop).
      if !gone, !reportedEnd { onLifecycle(active ? .started : .stopped) }
    }
  }

  private func open() throws {
    let device = try input.openDevice(
      configuration: configuration, waitsForReconnect: waitsForReconnect,
      onNote: { [unowned self] in onNote($0) })
    adopt(device, processor: MotionUpdates(configuration: configuration.motion, device: device))
  }

  /// Reads `device` from now on into `processor`, seeded with the bias stored for it.
  private func adopt(_ device: any MotionDevice, processor: any MotionProcessor) {
    device.waitsForReconnect = waitsForReconnect
    device.onNote = { [unowned self] note in
      switch note {
      case .deviceWentAway(_, true): onLifecycle(.waitingForDevice)
      case .deviceIsBack: onLifecycle(.deviceBack)
      default: break
      }
      onNote(note)
    }
    self.device = device
    self.processor = processor
    applyInterval()
    if let key = device.deviceInfo, let manager = processor.motionManager {
      manager.seedGyroscopeBias(
        from: configuration.gyroBiasStore, for: key, onNote: onNote)
    }
  }

  private func applyInterval() {
    processor?.motionManager?.deviceMotionUpdateInterval = deviceMotionUpdateInterval
    if processor == nil || updates != nil {
      device?.readInterval = deviceMotionUpdateInterval > 0 ? deviceMotionUpdateInterval : nil
    }
  }

  // MARK: The loop

  /// The device's nodes while they are open; none while stopped.
  public var pollDescriptors: [Int32] { device?.pollDescriptors ?? [] }

  /// When the device is to be read, or the processor woken (a display frame);
  /// `nil` at rest and while stopped.
  public var deadline: MonotonicInstant? {
    guard let device else { return nil }
    let wake = processor?.wakeTime.flatMap(device.wakeDelay(until:)).map {
      MonotonicInstant.now + .seconds($0)
    }
    guard deviceEnded else {
      guard readsWhen() else { return wake }
      return [wake, device.deadline].compactMap { $0 }.min()
    }
    // At the end of a recording: the rest of the processor's wake-ups, then its end.
    if reportedEnd || settling(device) { return wake }
    return .now
  }

  /// Whether the processor has more to show, at its time, before a recording's end.
  private func settling(_ device: any MotionDevice) -> Bool {
    processor?.settleTime.flatMap(device.wakeDelay(until:)) != nil
  }

  /// Reads what is ready into the processor, serves its wake-ups that are
  /// due. Throws ``MotionError/deviceGone(path:)`` when the device went away
  /// without ``waitsForReconnect``.
  public func service(ready: Set<Int32>) throws {
    try serve(ready: ready)
    if gone, let device { throw MotionError.deviceGone(path: device.path) }
  }

  private func serve(ready: Set<Int32>) throws {
    guard let device, let processor else { return }
    // A participant's command may have stopped or started updates since.
    try followProcessor()
    let mine = ready.intersection(device.pollDescriptors)
    // While a consumer has no room nothing is read: it wakes the loop when it has.
    let read = try deviceEnded || readsWhen() ? device.readSteps(ready: ready) : []
    if let items = read {
      deviceEnded = false
      if policy.buttonsStartUpdates {
        try processor.take(items)
      } else {
        for item in items { try take(item, into: processor) }
      }
    } else {
      deviceEnded = true
      try recordingDone(device, processor)
    }
    if device.isGone, !gone {
      gone = true
      onLifecycle(.ended)
    }
    if mine.isEmpty {
      // Wake-ups due while the device is silent (a display frame, the idle stop).
      var last = -Double.infinity
      while let wake = processor.wakeTime, wake <= device.now(), wake > last {
        last = wake
        try processor.advance(to: device.timeOfWake(wake))
      }
    }
    try processor.endTurn()
    try followProcessor()
  }

  /// One step into the processor. Unless the policy's buttons start stopped
  /// updates, a press while stopped is dropped (a batch read can hold a
  /// press after the stop); an idle stop due by its time comes first.
  private func take(_ item: MotionStep, into processor: any MotionProcessor) throws {
    guard !item.pressedButtons.isEmpty else { return try processor.take(item) }
    var item = item
    try processor.advance(to: item.time)
    if !processor.isActive { item.pressedButtons = [] }
    try processor.take(item)
  }

  /// A recording with nothing more: it ends once the processor has settled
  /// (paced, the rest of an animation is shown at its time), or plays again.
  private func recordingDone(_ device: any MotionDevice, _ processor: any MotionProcessor) throws {
    guard !reportedEnd, !settling(device) else { return }
    if try device.nextPass() {
      deviceEnded = false
      return
    }
    reportedEnd = true
    onLifecycle(.ended)
    if device.wakeDelay(until: 0) != nil { onRecordingEnd?(device.handOutNow()) }
    if !holdsAtEnd || device.wakeDelay(until: 0) == nil { ended = .recordingEnded }
  }

  /// Runs on `loop` (with its participants and signals) until one of its
  /// signals, ``requestEnd()``, or the end of a recording; then closes the
  /// source and keeps the gyroscope bias a rest confirmed
  /// (``DeviceMotionConfiguration/gyroBiasStore``). SIGWINCH, if the loop
  /// handles it, redraws the processor.
  @discardableResult
  public func run(on loop: EventLoop) throws -> Ending {
    let turn = ClosureParticipant(
      descriptors: { [unowned self] in pollDescriptors },
      deadline: { [unowned self] in deadline },
      service: { [unowned self] ready in try serve(ready: ready) })
    let ending: Ending
    do {
      ending = try loop.turns(
        first: turn, participants: { participants },
        ending: {
          if gone { return .requested }
          return ended
            ?? (endRequested || processor?.endRequested == true ? .requested : nil)
        },
        requested: .requested, onWindowChange: { try processor?.redraw() },
        afterTurn: {
          try processor?.endTurn()
          try followProcessor()
        })
    } catch {
      processor?.abandon()
      device?.finish()
      throw error
    }
    if ending == .requested, device is RecordingDevice {
      // A replay ended early stops where it is: no rest of an animation.
      processor?.abandon()
      device?.finish()
      storeGyroscopeBias()
    } else {
      try finish()
    }
    if gone, let device { throw MotionError.deviceGone(path: device.path) }
    return ending
  }

  /// Ends without a loop of its own, as the end of ``run(on:)`` does: stops
  /// updates, closes the device for good and keeps the bias a rest confirmed
  /// (a consumer that turns the manager through ``service(ready:)``).
  public func finishUpdates() throws { try finish() }

  /// Finishes the processor's output, closes the device, and keeps the bias a rest confirmed.
  private func finish() throws {
    defer { device?.finish() }
    if updates != nil {
      try? stopDeviceMotionUpdates()
    } else {
      try processor?.finish()
    }
    storeGyroscopeBias()
  }

  /// Keeps what the fusion learned of the gyroscope's bias for the next
  /// start of the device, when a rest confirmed it and the configuration
  /// has a ``DeviceMotionConfiguration/gyroBiasStore``; ``run(endingOn:)``
  /// does it at its end.
  public func storeGyroscopeBias() {
    guard let manager = processor?.motionManager, let key = device?.deviceInfo else { return }
    manager.storeGyroscopeBias(
      in: configuration.gyroBiasStore, for: key, onNote: onNote)
  }
}

extension MotionInput {
  /// Opens the device or recording: an IIO IMU for an IIO node or sysfs
  /// name, else an evdev node (the first motion device found for `nil`);
  /// a recording or source as a ``RecordingDevice``.
  public func openDevice(
    configuration: DeviceMotionConfiguration, waitsForReconnect: Bool = false,
    onNote: @escaping (MotionNote) -> Void
  ) throws -> any MotionDevice {
    switch self {
    case .device(let path):
      switch try MotionNode.resolve(path ?? DeviceChoice.firstMotionDevice()) {
      case .iio(let imu):
        return IIOMotionDevice(
          imu: imu, configuration: configuration, waitsForReconnect: waitsForReconnect,
          onNote: onNote)
      case .evdev(let path):
        return try LiveMotionDevice(
          path: path, configuration: configuration, waitsForReconnect: waitsForReconnect,
          onNote: onNote)
      }
    case .recording(let path, let speed):
      return try RecordingDevice(
        Recording.open(path: path, configuration: configuration), speed: speed, path: path)
    case .source(let speed, let make):
      return try RecordingDevice(make(), speed: speed)
    }
  }
}
