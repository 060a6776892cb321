import Attitude
import Foundation

/// Device motion from a live device (evdev or IIO) or a recording, shaped like
/// `CMMotionManager`, with no card.
///
/// ```swift
/// let manager = DeviceMotionManager(.device(path: nil))
/// guard manager.isDeviceMotionAvailable else { return }
/// manager.deviceMotionUpdateInterval = 0.1
/// try manager.startDeviceMotionUpdates { motion in print(motion.attitude.roll) }
/// try manager.run()  // until Ctrl-C
/// ```
///
/// Nothing is opened before the first ``startDeviceMotionUpdates(handler:)``.
/// ``stopDeviceMotionUpdates()`` closes the device's motion node at once (no
/// descriptor, no wake-ups) or holds the recording; only
/// ``startDeviceMotionUpdates(handler:)`` opens it again. Motion has no
/// buttons: a button pressed while stopped reaches nothing and starts
/// nothing (what a card makes of buttons is Tilt's).
///
/// A live device's samples are read once an update interval (not at each
/// sample, never so late that the kernel's queue could overflow) unless the
/// interval is 0. With ``waitsForReconnect`` a device that goes away is waited
/// for (hot-plug); without it ``run(endingOn:)`` throws ``TiltError/deviceGone(path:)``.
///
/// Not thread-safe (not `Sendable`): use it from one thread; the handler runs
/// on the thread that runs the loop.
public final class DeviceMotionManager: LoopParticipant {
  /// Why ``run(endingOn:)`` ended.
  public enum Ending: Hashable, Sendable {
    /// A signal the loop handles, or ``requestEnd()``.
    case requested
    /// The recording has no more samples.
    case recordingEnded
  }

  public let input: MotionInput
  public let configuration: DeviceMotionConfiguration
  /// Seconds of sample time between handler calls; 0 calls it for every sample.
  public var deviceMotionUpdateInterval = 0.0 {
    didSet {
      manager?.deviceMotionUpdateInterval = deviceMotionUpdateInterval
      feed?.updateInterval = deviceMotionUpdateInterval
    }
  }
  /// When the live device goes away, wait for a node with its name and id to
  /// come back instead of ending. Set it before the first start.
  public var waitsForReconnect = false
  /// Where notes go (a device gone or back, the stored bias); stderr by default.
  public var onNote: (MotionNote) -> Void = MotionNote.toStandardError
  /// What shares ``run(endingOn:)``'s `poll()`.
  public var participants: [any LoopParticipant] = []

  private var feed: (any MotionFeed)?
  private var manager: MotionManager?
  private var handler: ((DeviceMotion) -> Void)?
  private var ended: Ending?
  private var endRequested = false

  /// Motion from `input`; nothing is opened until updates start.
  public init(
    _ input: MotionInput = .device(path: nil), configuration: DeviceMotionConfiguration = .init()
  ) {
    self.input = input
    self.configuration = configuration
  }

  // MARK: Core Motion

  /// Whether updates can start: before the first start, whether the device
  /// named (or a motion device) or the recording is there; after it, false
  /// only when gyroscope fusion is forced on a device without one.
  public var isDeviceMotionAvailable: Bool {
    if let manager { return manager.isDeviceMotionAvailable }
    switch input {
    case .device(let path?), .recording(let path, _):
      return FileManager.default.isReadableFile(atPath: path)
    case .device(nil): return DeviceChoice.firstMotionDeviceIfAny() != nil
    case .source: return true
    }
  }

  /// True between ``startDeviceMotionUpdates(handler:)`` and ``stopDeviceMotionUpdates()``.
  public var isDeviceMotionActive: Bool { manager?.isDeviceMotionActive ?? false }
  /// The latest motion, for callers that poll; kept after a stop.
  public var deviceMotion: DeviceMotion? { manager?.deviceMotion }
  /// The live evdev device, once opened; `nil` for an IIO IMU or a recording.
  public var device: LiveMotionDevice? { (feed as? LiveFeed)?.device }
  /// The live IIO IMU, once opened.
  public var iioDevice: IIOMotionDevice? { (feed as? IIOFeed)?.device }
  /// Whether a live device's node is open now.
  public var isDeviceOpen: Bool { (device != nil || iioDevice != nil) && feed?.isOpen == true }

  /// Opens the source (the first time) or reopens the device, and calls
  /// `handler` with each motion, or one per ``deviceMotionUpdateInterval``.
  public func startDeviceMotionUpdates(handler: ((DeviceMotion) -> Void)? = nil) throws {
    self.handler = handler
    if feed == nil { try open() }
    guard let feed, let manager else { return }
    try feed.follow(active: true)
    if !manager.isDeviceMotionActive {
      manager.startDeviceMotionUpdates { [unowned self] motion in self.handler?(motion) }
    }
  }

  /// Stops updates and closes the device's motion node at once (a recording
  /// is held where it is). Samples of a batch already read are dropped.
  public func stopDeviceMotionUpdates() throws {
    handler = nil
    manager?.stopDeviceMotionUpdates()
    try feed?.follow(active: false)
  }

  /// Makes the next attitude the reference (with ``ReferenceMode/start``).
  public func recenter() { manager?.recenter() }

  /// Asks ``run(endingOn:)`` to end at its next turn (from the loop's thread).
  public func requestEnd() { endRequested = true }

  private func open() throws {
    let feed: any MotionFeed
    switch input {
    case .device(let path):
      feed = try liveFeed(
        path: path, configuration: configuration, waitsForReconnect: waitsForReconnect,
        onNote: { [unowned self] in onNote($0) })
    case .recording(let path, let speed):
      feed = try ReplayFeed(
        RecordingSource.open(path: path, configuration: configuration), speed: speed)
    case .source(let speed, let make):
      feed = try ReplayFeed(make(), speed: speed)
    }
    adopt(feed)
  }

  /// A manager that reads `feed` (a test's), already open.
  init(feed: any MotionFeed, configuration: DeviceMotionConfiguration = .init()) {
    input = .source(speed: nil) { throw TiltError.deviceGone(path: "a feed given at init") }
    self.configuration = configuration
    adopt(feed)
  }

  /// Reads `feed` from now on, through a motion manager made for it.
  private func adopt(_ feed: any MotionFeed) {
    var motion = configuration.motion
    if let range = feed.accelerometerRange { motion.fusionParameters.accelerometerRange = range }
    if let range = feed.gyroscopeRange { motion.fusionParameters.gyroscopeRange = range }
    let manager = MotionManager(configuration: motion, hasGyroscope: feed.hasGyroscope)
    manager.deviceMotionUpdateInterval = deviceMotionUpdateInterval
    feed.updateInterval = deviceMotionUpdateInterval
    if let key = feed.storedBiasKey {
      manager.seedGyroscopeBias(from: configuration.gyroBiasStore, for: key, onNote: onNote)
    }
    self.feed = feed
    self.manager = manager
  }

  // MARK: The loop

  /// The device's motion node while updates run; none while stopped.
  public var pollDescriptors: [Int32] { feed?.pollDescriptors ?? [] }

  /// When the next samples of a recording are due, or a live node is to be
  /// read again; `nil` at rest and while stopped.
  public var deadline: MonotonicInstant? { feed?.deadline }

  /// Reads what is ready into the motion manager. Throws
  /// ``TiltError/deviceGone(path:)`` when the device went away without
  /// ``waitsForReconnect``.
  public func service(ready: Set<Int32>) throws {
    guard let feed, let manager else { return }
    guard let items = try feed.read(ready: ready) else {
      ended = .recordingEnded
      return
    }
    for item in items {
      if let sample = item.motion { manager.process(sample) }
    }
  }

  /// Runs the loop until one of `signals` (SIGINT and SIGTERM by default),
  /// ``requestEnd()``, or the end of a recording; closes the source and
  /// keeps the gyroscope bias a rest confirmed (``DeviceMotionConfiguration/gyroBiasStore``).
  /// The signals' handlers are installed for the run only.
  @discardableResult
  public func run(endingOn signals: Set<EventLoop.Signal> = [.interrupt, .terminate]) throws
    -> Ending
  {
    try EventLoop.running(handling: signals) { try run(on: $0) }
  }

  /// Runs on `loop` (with its participants and signals), as ``run(endingOn:)``.
  @discardableResult
  public func run(on loop: EventLoop) throws -> Ending {
    defer { finish() }
    return try loop.turns(
      first: self, participants: { participants },
      ending: { ended ?? (endRequested ? .requested : nil) }, requested: .requested)
  }

  /// Stops, closes, and keeps the bias a rest confirmed.
  private func finish() {
    try? stopDeviceMotionUpdates()
    feed?.finish()
    if let manager, let key = feed?.storedBiasKey {
      manager.storeGyroscopeBias(in: configuration.gyroBiasStore, for: key, onNote: onNote)
    }
  }
}
