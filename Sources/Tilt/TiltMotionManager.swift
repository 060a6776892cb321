import Attitude
import Motion
import SensorData
import SystemCalls
import TiltCard

/// The tilt card driven by any motion device, shaped like `CMMotionManager`:
/// a live evdev node, an IIO sensor or a recording. The device, its
/// lifecycle and the loop are Motion's ``DeviceMotionManager`` (``motion``);
/// this class is the card on top of it: the pipeline as its processor, the
/// card's policy for what stays open, the sink. Its Core Motion surface
/// (the update interval, availability, start, stop, ``onLifecycle``) is
/// ``motion``'s, forwarded.
///
/// A live device is opened from a path (or the first motion device found),
/// with its paired button node and its mount matrix (the configuration's,
/// else the driver's or udev's). Updates are active once it is made, as the
/// card's are.
///
/// - Push: ``startDeviceMotionUpdates(handler:)`` calls the handler with each
///   ``Attitude/DeviceMotion``, or one per ``deviceMotionUpdateInterval``.
/// - Pull: read ``deviceMotion`` whenever you like.
/// - ``stopDeviceMotionUpdates()`` closes the motion node and the paired
///   button node (no descriptor, no wake-ups), or holds a recording; starting
///   reopens them. The card stops and starts with it.
///
/// What wakes stopped updates is the caller's policy,
/// ``buttonsStartUpdates``: by default only the app does
/// (``startDeviceMotionUpdates(handler:)``, ``perform(_:)``), and a button
/// pressed while stopped is ignored. With it `true` (as `tilt-cli live` sets
/// it, and as a recording plays) the nodes that carry the device's buttons
/// stay open while stopped, and a press starts the updates and the card again.
///
/// The loop is reusable: an app with its own event loop watches
/// ``pollDescriptors`` until ``deadline`` and calls ``service(ready:)``; a
/// simple app calls ``run(endingOn:)``, which sleeps in the kernel at rest. Other
/// ``LoopParticipant``s (a server, the terminal's keys) join ``run(endingOn:)``'s
/// `poll()` through ``participants``.
///
/// Not thread-safe (not `Sendable`): use it from one thread.
public final class TiltMotionManager: LoopParticipant, LoopRunning {
  /// Why ``run(endingOn:)`` ended: the manager's under the card (a device
  /// that went away is Motion's ``MotionError/deviceGone(path:)``, thrown).
  public typealias Ending = DeviceMotionManager.Ending

  /// A note for the person using the device (Motion's ``MotionNote``).
  public typealias Note = MotionNote

  public let configuration: TiltConfiguration
  public let pipeline: TiltPipeline
  /// The device, its lifecycle and the loop under the card.
  public let motion: DeviceMotionManager
  /// The device under the card.
  public let device: any MotionDevice

  /// What shares ``run(endingOn:)``'s `poll()`.
  public var participants: [any LoopParticipant] {
    get { motion.participants }
    set { motion.participants = newValue }
  }
  /// When the device goes away, wait for a node with its name and id to come
  /// back instead of ending.
  public var waitsForReconnect: Bool {
    get { motion.waitsForReconnect }
    set { motion.waitsForReconnect = newValue }
  }
  /// Where notes go; stderr by default, with control characters in the
  /// device's names and paths shown as escapes (``TerminalText``).
  public var onNote: (Note) -> Void = TiltMotionManager.noteToStandardError

  /// The node in use (it changes when the device comes back elsewhere), or the recording's path.
  public var devicePath: String { device.path }
  /// The device as the bias store and titles know it; `nil` for a recording.
  public var deviceInfo: DeviceInfo? { device.deviceInfo }
  /// The evdev device's profile; `nil` for an IIO sensor or a recording.
  public var profile: DeviceProfile? { (device as? LiveMotionDevice)?.profile }
  /// The node with the buttons of the same device, when they are on another node.
  public var buttonPath: String? { (device as? LiveMotionDevice)?.buttonPath }
  /// The recording played, when the device is one.
  public var recording: RecordingDevice? { device as? RecordingDevice }

  /// Whether a button pressed while updates are stopped (by
  /// ``stopDeviceMotionUpdates()``, a command or the idle stop) starts them
  /// again. `false` for a live device by default: stopped means stopped, the
  /// motion node and the paired button node are closed and a press is
  /// ignored. `true` keeps the nodes with the device's buttons open while
  /// stopped, so that a press wakes the card.
  public var buttonsStartUpdates: Bool {
    get { motion.policy.buttonsStartUpdates }
    set { motion.policy.buttonsStartUpdates = newValue }
  }
  /// A paced replay that reaches its end keeps serving its participants,
  /// the keys and the display clock until a signal or an end request (a
  /// served replay: the page keeps its last frame).
  public var holdsAtEnd: Bool {
    get { motion.holdsAtEnd }
    set { motion.holdsAtEnd = newValue }
  }
  /// Called once when a paced replay has reached the end of its recording
  /// and of the card's animation, with the source time of that end (seconds).
  public var onEnd: ((Double) -> Void)? {
    get { motion.onRecordingEnd }
    set { motion.onRecordingEnd = newValue }
  }

  /// Seconds of sample time between handler calls; 0 calls it for every
  /// sample (``DeviceMotionManager/deviceMotionUpdateInterval``).
  public var deviceMotionUpdateInterval: Double {
    get { motion.deviceMotionUpdateInterval }
    set {
      motion.deviceMotionUpdateInterval = newValue
      applyReadInterval()
    }
  }
  /// False only when gyroscope fusion is forced on a device without one.
  public var isDeviceMotionAvailable: Bool { motion.isDeviceMotionAvailable }
  /// True while updates run (the card is active).
  public var isDeviceMotionActive: Bool { motion.isDeviceMotionActive }
  /// The latest motion, for callers that poll.
  public var deviceMotion: DeviceMotion? { motion.deviceMotion }
  /// The card's state: `active` or `stopped`.
  public var state: UpdateState { pipeline.session.state }
  /// Whether a node of the device is open now.
  public var isDeviceOpen: Bool { motion.isDeviceOpen }
  /// Called with each of the device's ``DeviceMotionManager/LifecycleEvent``s,
  /// on the loop's thread (``DeviceMotionManager/onLifecycle``).
  public var onLifecycle: (DeviceMotionManager.LifecycleEvent) -> Void {
    get { motion.onLifecycle }
    set { motion.onLifecycle = newValue }
  }

  private lazy var viewDeadline = ViewDeadline(pipeline.sink)

  /// Opens `devicePath` (an evdev node or an IIO sensor), or the first
  /// motion device found; frames go to `sink`.
  public convenience init(
    devicePath: String? = nil, configuration: TiltConfiguration = .init(),
    sink: FrameSink = FrameHandlerSink { _ in }, waitsForReconnect: Bool = false,
    onNote: ((Note) -> Void)? = nil
  ) throws {
    try self.init(
      devicePath: devicePath, configuration: configuration, makeSink: { _ in sink },
      waitsForReconnect: waitsForReconnect, onNote: onNote)
  }

  /// Opens `devicePath` (an evdev node or an IIO sensor), or the first
  /// motion device found; `makeSink` is called once the device is open and
  /// can drive the card (a terminal view starts only then; an HTML page
  /// takes the device's name as its title).
  public convenience init(
    devicePath: String? = nil, configuration: TiltConfiguration = .init(),
    makeSink: (DeviceInfo) throws -> FrameSink, waitsForReconnect: Bool = false,
    onNote: ((Note) -> Void)? = nil
  ) throws {
    let note = onNote ?? Self.noteToStandardError
    let device = try MotionInput.device(path: devicePath).openDevice(
      configuration: configuration.deviceMotion, waitsForReconnect: waitsForReconnect,
      onNote: note)
    let info =
      device.deviceInfo
      ?? DeviceInfo(name: device.path, id: DeviceID(bustype: 0, vendor: 0, product: 0, version: 0))
    try self.init(
      device: device, configuration: configuration, sink: try makeSink(info), onNote: note)
    self.waitsForReconnect = waitsForReconnect
  }

  /// Plays a recording (or any source) of `input`, or opens its device;
  /// frames go to `sink`. A recording's buttons start stopped updates.
  public convenience init(
    _ input: MotionInput, configuration: TiltConfiguration = .init(), sink: FrameSink,
    onNote: ((Note) -> Void)? = nil
  ) throws {
    let note = onNote ?? Self.noteToStandardError
    let device = try input.openDevice(configuration: configuration.deviceMotion, onNote: note)
    try self.init(device: device, configuration: configuration, sink: sink, onNote: note)
  }

  /// The card on `device`, already open; frames go to `sink`. A recording's
  /// buttons start stopped updates (``buttonsStartUpdates``).
  public convenience init(
    device: any MotionDevice, configuration: TiltConfiguration = .init(), sink: FrameSink,
    onNote: ((Note) -> Void)? = nil
  ) throws {
    let pipeline = TiltPipeline(
      configuration: configuration, capabilities: device.capabilities, sink: sink)
    try self.init(device: device, pipeline: pipeline, onNote: onNote)
  }

  /// The card of `pipeline` (made for `device`: its gyroscope, buttons and
  /// ranges) on `device`, already open.
  public init(
    device: any MotionDevice, pipeline: TiltPipeline, onNote: ((Note) -> Void)? = nil
  ) throws {
    configuration = pipeline.configuration
    self.device = device
    self.pipeline = pipeline
    if let onNote { self.onNote = onNote }
    let recording = device as? RecordingDevice
    var policy = DevicePolicy()
    policy.readsButtons = true
    policy.buttonsStartUpdates = recording != nil
    // Under reduce motion a node that only reports motion stays closed.
    policy.motionIsStill = configuration.card.reduceMotion
    // A paced replay keeps its motion state while it holds the recording.
    pipeline.keepsMotionSessionWhileStopped = recording?.speed != nil
    recording?.gapBetweenPasses = 1 / configuration.displayRateHz
    motion = try DeviceMotionManager(
      device: device, processor: pipeline, configuration: configuration.deviceMotion,
      policy: policy, onNote: self.onNote)
    motion.onNote = { [unowned self] in self.onNote($0) }
    pipeline.currentTime = { [weak device] in device?.handOutNow() ?? 0 }
    applyReadInterval()
  }

  /// The default ``onNote``: stderr, control characters shown as escapes.
  public static func noteToStandardError(_ note: Note) {
    try? Syscall.writeAll(
      StandardDescriptor.error, Array("tilt: \(TerminalText.escaped("\(note)"))\n".utf8))
  }

  // MARK: Core Motion

  /// Starts updates (the card too) and calls `handler` with each motion, or
  /// one per ``deviceMotionUpdateInterval``. Reopens a closed device.
  public func startDeviceMotionUpdates(handler: ((DeviceMotion) -> Void)? = nil) throws {
    // The read interval first: the device opens with it.
    pipeline.motionHandler = handler
    applyReadInterval()
    try motion.startDeviceMotionUpdates(handler: handler)
    try pipeline.sink.flush()
  }

  /// Stops updates and the card, and closes the motion node (or holds the recording).
  public func stopDeviceMotionUpdates() throws {
    pipeline.motionHandler = nil
    applyReadInterval()
    try motion.stopDeviceMotionUpdates()
    try pipeline.sink.flush()
  }

  /// Makes the next attitude the reference (with ``ReferenceMode/start``).
  public func recenter() throws { try perform(.recenter) }

  /// Flips the card.
  public func flip() throws { try perform(.flip) }

  /// A card command now; the device follows the card's lifecycle.
  public func perform(_ command: CardSession.Command) throws {
    try pipeline.perform(command)
    try pipeline.sink.flush()
    try motion.followProcessor()
  }

  /// Calls `observer` with each card frame as it is shown.
  public func observeFrames(_ observer: @escaping (CardFrame) -> Void) {
    pipeline.frameObservers.append(observer)
  }

  /// The device is read once a display frame rather than at each sample:
  /// with display frames, and no handler at every sample.
  private func applyReadInterval() {
    let frameInterval = 1 / configuration.displayRateHz
    let batches =
      !configuration.everySample
      && (pipeline.motionHandler == nil || deviceMotionUpdateInterval >= frameInterval)
    device.readInterval = batches ? frameInterval : nil
  }

  // MARK: The loop

  /// The device's open nodes, and while waiting for it to come back, the
  /// watch on its directory.
  public var pollDescriptors: [Int32] { motion.pollDescriptors }

  /// When a display frame or the idle stop is due, the device is to be
  /// read again, or the terminal view is to draw a frame it held back
  /// (``TerminalSink/drawDeadline``); `nil` at rest: nothing wakes the loop
  /// but the device.
  public var deadline: MonotonicInstant? {
    [motion.deadline, viewDeadline.deadline].compactMap { $0 }.min()
  }

  /// Reads what is ready, shows the frames that are due. Throws
  /// ``MotionError/deviceGone(path:)`` when the device went away and
  /// ``waitsForReconnect`` is false.
  public func service(ready: Set<Int32>) throws { try motion.service(ready: ready) }

  /// Runs on `loop` (with its participants and signals) until SIGINT or
  /// SIGTERM if it handles them, ``EventLoop/requestEnd()`` (from any
  /// thread), ``TiltPipeline/requestEnd()``, the end of a recording, or the
  /// device going away without ``waitsForReconnect``; then finishes the
  /// output, and throws ``MotionError/deviceGone(path:)`` when the device
  /// went away (as ``DeviceMotionManager/run(on:)`` does). SIGWINCH redraws.
  @discardableResult
  public func run(on loop: EventLoop) throws -> Ending {
    let view = viewDeadline
    motion.participants.append(view)
    defer { motion.participants.removeAll { $0 === view } }
    return try motion.run(on: loop)
  }

  /// Keeps what the fusion learned of the gyroscope's bias for the next
  /// start, when a rest of this run confirmed it and the configuration has a
  /// ``TiltConfiguration/gyroBiasStore``; ``run(endingOn:)`` does it at its end.
  public func storeGyroscopeBias() { motion.storeGyroscopeBias() }
}

/// The terminal view's next draw as a deadline of the loop: a frame the view
/// held back to keep its pace is drawn when due (the loop's turn ends with
/// the sink's `flush()`), not when something else wakes the loop.
final class ViewDeadline: LoopParticipant {
  weak var sink: TerminalSink?

  init(_ sink: FrameSink) { self.sink = sink as? TerminalSink }

  var pollDescriptors: [Int32] { [] }
  var deadline: MonotonicInstant? { sink?.drawDeadline }
  func service(ready: Set<Int32>) throws { try sink?.flush() }
}
