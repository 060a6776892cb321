import Attitude
import EvdevCore
import Foundation
import IIO
import Motion
import SystemCalls
import TiltCard

/// A live IIO IMU (an accelerometer, and the gyroscope of its hub) and the
/// tilt card: what ``TiltMotionManager`` is for an evdev device, with the
/// same pipeline, lifecycle and notes.
///
/// Samples come from the gyroscope's buffer (the accelerometer's without
/// one) and are timed by its `in_timestamp` (differences only: a HID hub's
/// own clock); each carries the latest accelerometer reading. Without a buffer the sensors' `in_*_raw`
/// are read at ``pollRate(for:)``, timed by the monotonic clock.
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
  /// The sensors in use (they change when the device comes back elsewhere).
  public private(set) var imu: IIOIMU
  /// Device frame → card frame: the configuration's, else the driver's
  /// `mount_matrix`, else udev's `ACCEL_MOUNT_MATRIX`, else identity.
  public let mountMatrix: MountMatrix
  /// The IMU as the bias store and titles know a device.
  public let deviceInfo: DeviceInfo
  /// The accelerometer's node: what notes and errors name.
  public var devicePath: String { imu.accelerometer.nodePath }
  public var isDeviceOpen: Bool { accel != nil }
  /// Seconds between reads of `in_*_raw` when polling; `nil` with a buffer.
  public var pollInterval: Double? {
    imu.accelerometer.hasBuffer ? nil : 1 / IIOMotionManager.pollRate(for: imu.accelerometer)
  }
  public var state: UpdateState { pipeline.session.state }
  /// Called with each card-frame sample before the pipeline takes it (`record`).
  public var sampleObservers: [(MotionSample) -> Void] = []

  private var accel: IIOStream?
  private var gyro: IIOStream?
  private var latestRate: SIMD3<Double>?
  private var latestAcceleration: SIMD3<Double>?
  private var firstTimestamp: Int64?
  private var clock = LiveClock()
  private var removalWatch: Int32?
  private var waiting = false
  private var nextPoll: MonotonicInstant?
  private var ended: Ending?

  /// The rate at which a sensor without a buffer is polled: its
  /// `sampling_frequency` within 10…100 Hz, else 50 Hz (above the 30 Hz a
  /// hand's tilt needs, below what a sysfs read per axis costs to keep up).
  public static func pollRate(for device: IIODevice) -> Double {
    guard let f = device.samplingFrequency, f > 0 else { return 50 }
    return min(max(f, 10), 100)
  }

  public init(
    imu: IIOIMU, configuration: TiltConfiguration = .init(),
    makeSink: (DeviceInfo) throws -> FrameSink, waitsForReconnect: Bool = false,
    onNote: ((Note) -> Void)? = nil
  ) throws {
    self.imu = imu
    self.configuration = configuration
    self.waitsForReconnect = waitsForReconnect
    if let onNote { self.onNote = onNote }
    let note = self.onNote
    mountMatrix = IIOMotionManager.mountMatrix(for: imu.accelerometer, configuration: configuration)
    {
      note(.ignoredUdevMountMatrix($0))
    }
    deviceInfo = IIOMotionManager.deviceInfo(for: imu)
    pipeline = TiltPipeline(
      configuration: configuration, hasGyroscope: imu.gyroscope != nil, buttons: [],
      sink: try makeSink(deviceInfo))
    if !configuration.card.reduceMotion { try open() }
    pipeline.manager.seedGyroscopeBias(
      from: configuration.gyroBiasStore, for: deviceInfo, onNote: self.onNote)
    pipeline.currentTime = { [unowned self] in clock.handOutNow() }
  }

  /// The mount matrix of `device`: the configuration's, the driver's
  /// attribute, udev's `ACCEL_MOUNT_MATRIX` (a malformed one is said to `warn`).
  public static func mountMatrix(
    for device: IIODevice, configuration: TiltConfiguration, warn: (IgnoredMountMatrix) -> Void
  ) -> MountMatrix {
    if let matrix = configuration.mountMatrix { return matrix }
    if let text = device.mountMatrixAttribute {
      if let matrix = try? MountMatrix(parsing: text) { return matrix }
      warn(
        IgnoredMountMatrix(
          device: device.nodePath, origin: .driver(sysfsPath: device.sysfsPath),
          problem: "\"\(text)\" does not parse"))
    }
    let udev = DeviceSetup.udevMountMatrix(
      IIOUdev.accelMountMatrix(of: device), device: device.nodePath, warn: warn)
    return udev ?? .identity
  }

  /// A ``DeviceInfo`` for the bias store and page titles: the IMU's name, and
  /// the bus, vendor and product of its hub when it is a HID device
  /// (`0003:8086:22D8.0001`).
  public static func deviceInfo(for imu: IIOIMU) -> DeviceInfo {
    let hub = (imu.accelerometer.hub as NSString).lastPathComponent
    let parts = hub.split(separator: ":")
    var id = DeviceID(bustype: 0, vendor: 0, product: 0, version: 0)
    if parts.count == 3, let bus = UInt16(parts[0], radix: 16),
      let vendor = UInt16(parts[1], radix: 16),
      let product = UInt16(parts[2].split(separator: ".").first ?? "", radix: 16)
    {
      id = DeviceID(bustype: bus, vendor: vendor, product: product, version: 0)
    }
    return DeviceInfo(name: imu.name, id: id)
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

  // MARK: Opening and closing

  private func open() throws {
    let sameDevice = imu.gyroscope == imu.accelerometer
    do {
      accel = try IIOStream(
        device: imu.accelerometer,
        kinds: sameDevice ? [.accelerometer, .gyroscope] : [.accelerometer])
      if let gyroscope = imu.gyroscope, !sameDevice {
        gyro = try IIOStream(device: gyroscope, kinds: [.gyroscope])
      }
    } catch {
      close()
      throw error
    }
    firstTimestamp = nil
    latestRate = nil
    latestAcceleration = nil
    clock.restartSamples()
    nextPoll = pollInterval.map { _ in .now }
    if removalWatch == nil {
      removalWatch = try? Syscall.watchDirectoryForRemoval(
        (imu.accelerometer.nodePath as NSString).deletingLastPathComponent)
    }
  }

  private func close() {
    accel?.close()
    gyro?.close()
    accel = nil
    gyro = nil
    nextPoll = nil
    if let fd = removalWatch, !waiting {
      Syscall.close(fd)
      removalWatch = nil
    }
  }

  // MARK: The loop

  public var pollDescriptors: [Int32] {
    var fds: [Int32] = []
    if let fd = accel?.fileDescriptor { fds.append(fd) }
    if let fd = gyro?.fileDescriptor { fds.append(fd) }
    if let fd = removalWatch { fds.append(fd) }
    return fds
  }

  public var deadline: MonotonicInstant? {
    let frame = pipeline.session.nextWakeTime.map {
      MonotonicInstant.now + .seconds(clock.wallDelay(until: $0))
    }
    return [frame, nextPoll].compactMap { $0 }.min()
  }

  public func service(ready: Set<Int32>) throws {
    try serviceDevices(ready: ready)
    if ended == .deviceWentAway { throw TiltError.deviceGone(path: devicePath) }
  }

  private func serviceDevices(ready: Set<Int32>) throws {
    let mine = ready.intersection(pollDescriptors)
    if let fd = removalWatch, mine.contains(fd) { try removalChanged(fd) }
    do {
      // The accelerometer first: a gyroscope scan then finds the
      // acceleration of its own time already read (a hub sends both at once).
      if let stream = accel, let fd = stream.fileDescriptor, mine.contains(fd) {
        try take(try stream.read())
      }
      if let stream = gyro, let fd = stream.fileDescriptor, mine.contains(fd) {
        try take(try stream.read())
      }
      if let due = nextPoll, due <= .now, let stream = accel {
        var scan = try stream.readRaw()
        if let gyro { scan.values[.gyroscope] = try gyro.readRaw().values[.gyroscope] }
        try take([scan])
        nextPoll = max(due + .seconds(pollInterval ?? 0), .now - .seconds(1))
      }
    } catch {
      guard let iio = error as? IIOError else { throw error }
      guard case .vanished = iio else { throw iio }
      wentAway()
    }
    if mine.isEmpty, let wake = pipeline.session.nextWakeTime, wake <= clock.now() {
      try pipeline.advance(to: clock.handOutNow())
    }
    try afterTurn()
  }

  /// Scans into samples. With a gyroscope, its scans make the samples,
  /// timed by its timestamps, each with the latest acceleration: the rate
  /// is what the fusion integrates over each step, so every one counts at
  /// its own time (with samples made by the accelerometer and the latest
  /// rate, a rate read one turn late moved a ramp's end by a sample: VM
  /// scenario 22 once ended 1.07° off); the acceleration only corrects
  /// slowly. Without one, the accelerometer's scans make them.
  private func take(_ scans: [IIOScan]) throws {
    for scan in scans {
      if let a = scan.values[.accelerometer] { latestAcceleration = a }
      if let r = scan.values[.gyroscope] { latestRate = r }
      let makesSample =
        imu.gyroscope == nil ? scan.values[.accelerometer] != nil : scan.values[.gyroscope] != nil
      guard makesSample, let a = latestAcceleration else { continue }
      let first = firstTimestamp ?? scan.timestampNanoseconds
      firstTimestamp = first
      let t = clock.sourceTime(forSample: Double(scan.timestampNanoseconds - first) / 1e9)
      let sample = MotionSample(
        time: t, acceleration: IIOConvention.cardAcceleration(a, mount: mountMatrix).vector,
        rotationRate: imu.gyroscope == nil
          ? nil
          : IIOConvention.cardRotationRate(latestRate ?? .zero, mount: mountMatrix).vector)
      for observer in sampleObservers { observer(sample) }
      try pipeline.take(SourceItem(time: t, motion: sample, pressedButtons: []))
    }
  }

  private func removalChanged(_ fd: Int32) throws {
    while !Syscall.readAvailable(fd, limit: 4096).isEmpty {}
    if waiting {
      try comeBack()
      return
    }
    if !FileManager.default.fileExists(atPath: imu.accelerometer.nodePath)
      || (imu.gyroscope.map { !FileManager.default.fileExists(atPath: $0.nodePath) } ?? false)
    {
      wentAway()
    }
  }

  private func wentAway() {
    waiting = waitsForReconnect
    close()
    onNote(.deviceWentAway(path: devicePath, waiting: waitsForReconnect))
    if !waitsForReconnect {
      ended = .deviceWentAway
      return
    }
    if removalWatch == nil {
      removalWatch = try? Syscall.watchDirectoryForRemoval(
        (imu.accelerometer.nodePath as NSString).deletingLastPathComponent)
    }
  }

  /// With ``waitsForReconnect``: the IMU is back when an accelerometer of the same name
  /// (and a gyroscope, if it had one) is listed again and its node exists.
  private func comeBack() throws {
    let devices = IIOScanner.scan()
    guard
      let back = IIOIMU.group(devices).first(where: {
        $0.accelerometer.name == imu.accelerometer.name
          && ($0.gyroscope?.name == imu.gyroscope?.name)
          && FileManager.default.fileExists(atPath: $0.accelerometer.nodePath)
      })
    else { return }
    let previous = imu
    imu = back
    do {
      waiting = false
      try open()
    } catch {
      // Its attributes may not be ready yet: wait for the next change.
      imu = previous
      waiting = true
      return
    }
    onNote(.deviceIsBack(path: back.accelerometer.nodePath))
  }

  /// Runs the loop as ``TiltMotionManager/run(endingOn:)`` does.
  @discardableResult
  public func run(endingOn signals: Set<EventLoop.Signal> = [.interrupt, .terminate]) throws
    -> Ending
  {
    let loop = try EventLoop(handling: signals)
    defer { loop.end() }
    return try run(on: loop)
  }

  /// Runs on `loop` as ``TiltMotionManager/run(on:)`` does.
  @discardableResult
  public func run(on loop: EventLoop) throws -> Ending {
    let ending: Ending
    do {
      ending = try turns(of: loop)
    } catch {
      try? pipeline.sink.finish()
      close()
      throw error
    }
    try pipeline.finish()
    waiting = false
    close()
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
    let wantMotion = !pipeline.session.shouldStopUpdates && !configuration.card.reduceMotion
    if !wantMotion, accel != nil {
      close()
    } else if wantMotion, accel == nil, !waiting, ended == nil {
      try open()
    }
  }
}

/// udev's database entry of an IIO device, read from its files (no libudev).
enum IIOUdev {
  /// `ACCEL_MOUNT_MATRIX` from `/run/udev/data/c<dev>` of the device's `dev` attribute.
  static func accelMountMatrix(of device: IIODevice, directory: String = "/run/udev/data")
    -> String?
  {
    guard
      let dev = try? String(
        contentsOfFile: device.sysfsPath + "/dev", encoding: .utf8
      ).trimmingCharacters(in: .whitespacesAndNewlines),
      let text = try? String(contentsOfFile: "\(directory)/c\(dev)", encoding: .utf8)
    else { return nil }
    for line in text.split(whereSeparator: \.isNewline)
    where line.hasPrefix("E:ACCEL_MOUNT_MATRIX=") {
      return String(line.dropFirst("E:ACCEL_MOUNT_MATRIX=".count))
    }
    return nil
  }
}
