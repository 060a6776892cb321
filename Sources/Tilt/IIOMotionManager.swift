import Attitude
import EvdevCore
import IIO
import Motion
import SystemCalls
import TiltCard

/// A live IIO IMU (an accelerometer, and the gyroscope of its hub) and the
/// tilt card: what ``TiltMotionManager`` is for an evdev device, with the
/// same pipeline, lifecycle and notes, on Motion's `IIOMotionDevice` (the
/// sensors, their buffers or polling, the clock, going away and coming back).
///
/// ``stopDeviceMotionUpdates()`` disables the buffers and closes the nodes
/// (no descriptor, no wake-ups); starting enables them again.
///
/// Not thread-safe (not `Sendable`): use it from one thread.
public final class IIOMotionManager: LoopParticipant {
  public typealias Note = TiltMotionManager.Note
  public typealias Ending = TiltMotionManager.Ending

  public let configuration: TiltConfiguration
  public let pipeline: TiltPipeline
  public var participants: [any LoopParticipant] = []
  public var waitsForReconnect: Bool
  /// Where notes go; stderr by default, with control characters in the
  /// device's names and paths shown as escapes (``TerminalText``).
  public var onNote: (Note) -> Void = { note in
    try? Syscall.writeAll(
      StandardDescriptor.error, Array("tilt: \(TerminalText.escaped("\(note)"))\n".utf8))
  }
  /// The sensors under the card (Motion).
  public let device: IIOMotionDevice
  /// The sensors in use (they change when the device comes back elsewhere).
  public var imu: IIOIMU { device.imu }
  /// Device frame → card frame: the configuration's, else the driver's
  /// `mount_matrix`, else udev's `ACCEL_MOUNT_MATRIX`, else identity.
  public var mountMatrix: MountMatrix { device.mountMatrix }
  /// The IMU as the bias store and titles know a device.
  public var deviceInfo: DeviceInfo { device.info }
  /// The accelerometer's node: what notes and errors name.
  public var devicePath: String { device.path }
  public var isDeviceOpen: Bool { device.isOpen }
  /// Seconds between reads of `in_*_raw` when polling; `nil` with a buffer.
  public var pollInterval: Double? { device.pollInterval }
  public var state: UpdateState { pipeline.session.state }
  /// Called with each card-frame sample before the pipeline takes it (`record`).
  public var sampleObservers: [(MotionSample) -> Void] = []

  private var ended: Ending?

  /// The rate at which a sensor without a buffer is polled (``IIOMotionDevice/pollRate(for:)``).
  public static func pollRate(for device: IIODevice) -> Double {
    IIOMotionDevice.pollRate(for: device)
  }

  public init(
    imu: IIOIMU, configuration: TiltConfiguration = .init(),
    makeSink: (DeviceInfo) throws -> FrameSink, waitsForReconnect: Bool = false,
    onNote: ((Note) -> Void)? = nil
  ) throws {
    self.configuration = configuration
    self.waitsForReconnect = waitsForReconnect
    if let onNote { self.onNote = onNote }
    let note = self.onNote
    device = IIOMotionDevice(
      imu: imu, configuration: configuration.deviceMotion, waitsForReconnect: waitsForReconnect,
      onNote: { note($0) })
    pipeline = TiltPipeline(
      configuration: configuration, hasGyroscope: imu.gyroscope != nil, buttons: [],
      sink: try makeSink(device.info))
    try device.follow(open: !configuration.card.reduceMotion)
    pipeline.manager.seedGyroscopeBias(
      from: configuration.gyroBiasStore, for: deviceInfo, onNote: self.onNote)
    device.onNote = { [unowned self] in self.onNote($0) }
    pipeline.currentTime = { [unowned self] in device.handOutNow() }
  }

  /// The mount matrix of `device` (``IIOMotionDevice/mountMatrix(for:configuration:warn:)``).
  public static func mountMatrix(
    for device: IIODevice, configuration: TiltConfiguration, warn: (IgnoredMountMatrix) -> Void
  ) -> MountMatrix {
    IIOMotionDevice.mountMatrix(for: device, configuration: configuration.deviceMotion, warn: warn)
  }

  /// The IMU as the bias store knows it (``IIOMotionDevice/deviceInfo(for:)``).
  public static func deviceInfo(for imu: IIOIMU) -> DeviceInfo {
    IIOMotionDevice.deviceInfo(for: imu)
  }

  // MARK: Core Motion

  public func startDeviceMotionUpdates() throws {
    if state == .stopped { try perform(.startUpdates) }
  }

  public func stopDeviceMotionUpdates() throws {
    if state == .active { try perform(.stopUpdates) }
  }

  public func perform(_ command: CardSession.Command) throws {
    try pipeline.perform(command)
    try afterTurn()
  }

  // MARK: The loop

  public var pollDescriptors: [Int32] { device.pollDescriptors }

  public var deadline: MonotonicInstant? {
    let frame = pipeline.session.nextWakeTime.map {
      MonotonicInstant.now + .seconds(device.wallDelay(until: $0))
    }
    return [frame, device.deadline].compactMap { $0 }.min()
  }

  public func service(ready: Set<Int32>) throws {
    try serviceDevices(ready: ready)
    if ended == .deviceWentAway { throw TiltError.deviceGone(path: devicePath) }
  }

  private func serviceDevices(ready: Set<Int32>) throws {
    device.waitsForReconnect = waitsForReconnect
    let mine = ready.intersection(pollDescriptors)
    for item in try device.read(ready: ready) {
      if let sample = item.motion {
        for observer in sampleObservers { observer(sample) }
      }
      try pipeline.take(item)
    }
    if device.isGone { ended = .deviceWentAway }
    if mine.isEmpty, let wake = pipeline.session.nextWakeTime, wake <= device.now() {
      try pipeline.advance(to: device.handOutNow())
    }
    try afterTurn()
  }

  /// Runs the loop as ``TiltMotionManager/run(endingOn:)`` does.
  @discardableResult
  public func run(endingOn signals: Set<EventLoop.Signal> = [.interrupt, .terminate]) throws
    -> Ending
  {
    try EventLoop.running(handling: signals) { try run(on: $0) }
  }

  /// Runs on `loop` as ``TiltMotionManager/run(on:)`` does.
  @discardableResult
  public func run(on loop: EventLoop) throws -> Ending {
    let ending: Ending
    do {
      ending = try turns(of: loop)
    } catch {
      try? pipeline.sink.finish()
      device.finish()
      throw error
    }
    try pipeline.finish()
    device.finish()
    storeGyroscopeBias()
    return ending
  }

  public func storeGyroscopeBias() {
    pipeline.storeGyroscopeBias(
      in: configuration.gyroBiasStore, for: deviceInfo, onNote: onNote)
  }

  private func turns(of loop: EventLoop) throws -> Ending {
    let sensors = ClosureParticipant(
      descriptors: { [unowned self] in pollDescriptors },
      deadline: { [unowned self] in deadline },
      service: { [unowned self] ready in try serviceDevices(ready: ready) })
    try serviceDevices(ready: [])
    return try pipeline.liveTurns(
      on: loop, device: sensors, participants: { participants }, ended: { ended },
      afterTurn: { try afterTurn() })
  }

  private func afterTurn() throws {
    try pipeline.sink.flush()
    try followLifecycle()
  }

  /// Stopped means closed: the buffers disabled, the nodes closed (SPEC §5).
  private func followLifecycle() throws {
    try device.follow(
      open: !pipeline.session.shouldStopUpdates && !configuration.card.reduceMotion)
  }
}
