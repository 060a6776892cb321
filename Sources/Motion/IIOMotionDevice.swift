import Attitude
import Foundation
import IIO
import SensorData
import SystemCalls

/// A live IIO IMU (an accelerometer, and the gyroscope of its hub) as a
/// source of ``MotionStep``s: what ``LiveMotionDevice`` is for an evdev node.
///
/// Samples come from the gyroscope's buffer (the accelerometer's without
/// one) and are timed by its `in_timestamp` (differences only: a HID hub's
/// own clock); each carries the latest accelerometer reading. Without a
/// buffer the sensors' `in_*_raw` are read at ``pollRate(for:)``, timed by
/// the monotonic clock. Closed (``follow(open:)``), the buffers are disabled
/// and the nodes closed: no descriptor, no wake-ups.
///
/// Not thread-safe (not `Sendable`): use it from one thread.
public final class IIOMotionDevice {
  /// The sensors in use (they change when the device comes back elsewhere).
  public private(set) var imu: IIOIMU
  /// Device frame → card frame: the configuration's, else the driver's
  /// `mount_matrix`, else udev's `ACCEL_MOUNT_MATRIX`, else identity.
  public let mountMatrix: MountMatrix
  /// The IMU as the bias store and titles know a device.
  public let info: DeviceInfo
  /// When the sensors go away, wait for them to come back instead of ending.
  public var waitsForReconnect: Bool
  public var onNote: (MotionNote) -> Void
  /// True once the sensors went away and ``waitsForReconnect`` is false.
  public private(set) var isGone = false
  /// The accelerometer's node: what notes and errors name.
  public var path: String { imu.accelerometer.nodePath }
  public var isOpen: Bool { accel != nil }
  /// Seconds between reads of `in_*_raw` when polling; `nil` with a buffer.
  public var pollInterval: Double? {
    imu.accelerometer.hasBuffer ? nil : 1 / Self.pollRate(for: imu.accelerometer)
  }

  private var accel: IIOStream?
  private var gyro: IIOStream?
  private var latestRate: SIMD3<Double>?
  private var latestAcceleration: SIMD3<Double>?
  private var firstTimestamp: Int64?
  private var clock = LiveClock()
  private var removalWatch: Int32?
  private var waiting = false
  private var nextPoll: MonotonicInstant?

  /// The rate at which a sensor without a buffer is polled: its
  /// `sampling_frequency` within 10…100 Hz, else 50 Hz (above the 30 Hz a
  /// hand's tilt needs, below what a sysfs read per axis costs to keep up).
  public static func pollRate(for device: IIODevice) -> Double {
    guard let f = device.samplingFrequency, f > 0 else { return 50 }
    return min(max(f, 10), 100)
  }

  /// The IMU's sensors, not opened yet (``follow(open:)``).
  public init(
    imu: IIOIMU, configuration: DeviceMotionConfiguration = .init(),
    waitsForReconnect: Bool = false, onNote: @escaping (MotionNote) -> Void
  ) {
    self.imu = imu
    self.waitsForReconnect = waitsForReconnect
    self.onNote = onNote
    mountMatrix = Self.mountMatrix(for: imu.accelerometer, configuration: configuration) {
      onNote(.ignoredUdevMountMatrix($0))
    }
    info = Self.deviceInfo(for: imu)
  }

  /// The mount matrix of `device`: the configuration's, the driver's
  /// attribute, udev's `ACCEL_MOUNT_MATRIX` (a malformed one is said to `warn`).
  public static func mountMatrix(
    for device: IIODevice, configuration: DeviceMotionConfiguration,
    warn: (IgnoredMountMatrix) -> Void
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

  // MARK: Opening and closing

  /// Opens the sensors (buffers enabled) or closes them (disabled). Not
  /// while waiting for them to come back, nor once they are gone.
  public func follow(open wantOpen: Bool) throws {
    if !wantOpen, accel != nil {
      close()
    } else if wantOpen, accel == nil, !waiting, !isGone {
      try open()
    }
  }

  /// Closes the sensors and stops waiting for them (the end of a run).
  public func finish() {
    waiting = false
    close()
  }

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

  // MARK: The clock

  /// The pipeline time now, to judge what is due (`LiveClock.now()`).
  public func now() -> Double { clock.now() }
  /// The time now for a command or a timer frame: no sample is placed before it.
  public func handOutNow() -> Double { clock.handOutNow() }
  /// Seconds of wall time until source time `t`.
  public func wallDelay(until t: Double) -> Double { clock.wallDelay(until: t) }

  // MARK: The loop

  /// The sensors' nodes and, while open or waiting, the watch on their directory.
  public var pollDescriptors: [Int32] {
    var fds: [Int32] = []
    if let fd = accel?.fileDescriptor { fds.append(fd) }
    if let fd = gyro?.fileDescriptor { fds.append(fd) }
    if let fd = removalWatch { fds.append(fd) }
    return fds
  }

  /// When the next poll of `in_*_raw` is due (a sensor without a buffer).
  public var deadline: MonotonicInstant? { nextPoll }

  /// The samples that arrived, oldest first, on the live clock. `ready`
  /// are the descriptors found readable.
  public func read(ready: Set<Int32>) throws -> [MotionStep] {
    let mine = ready.intersection(pollDescriptors)
    if let fd = removalWatch, mine.contains(fd) { try removalChanged(fd) }
    var items: [MotionStep] = []
    do {
      // The accelerometer first: a gyroscope scan then finds the
      // acceleration of its own time already read (a hub sends both at once).
      if let stream = accel, let fd = stream.fileDescriptor, mine.contains(fd) {
        items += samples(try stream.read())
      }
      if let stream = gyro, let fd = stream.fileDescriptor, mine.contains(fd) {
        items += samples(try stream.read())
      }
      if let due = nextPoll, due <= .now, let stream = accel {
        var scan = try stream.readRaw()
        if let gyro { scan.values[.gyroscope] = try gyro.readRaw().values[.gyroscope] }
        items += samples([scan])
        nextPoll = max(due + .seconds(pollInterval ?? 0), .now - .seconds(1))
      }
    } catch {
      guard case .vanished = error else { throw error }
      wentAway()
    }
    return items
  }

  /// Scans into samples. With a gyroscope, its scans make the samples,
  /// timed by its timestamps, each with the latest acceleration: the rate
  /// is what the fusion integrates over each step, so every one counts at
  /// its own time (with samples made by the accelerometer and the latest
  /// rate, a rate read one turn late moved a ramp's end by a sample: VM
  /// scenario 22 once ended 1.07° off); the acceleration only corrects
  /// slowly. Without one, the accelerometer's scans make them.
  private func samples(_ scans: [IIOScan]) -> [MotionStep] {
    var items: [MotionStep] = []
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
      items.append(MotionStep(time: t, motion: sample, pressedButtons: []))
    }
    return items
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
    onNote(.deviceWentAway(path: path, waiting: waitsForReconnect))
    if !waitsForReconnect {
      isGone = true
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
}

/// udev's database entry of an IIO device, read from its files (no libudev).
package enum IIOUdev {
  /// `ACCEL_MOUNT_MATRIX` from `/run/udev/data/c<dev>` of the device's `dev` attribute.
  package static func accelMountMatrix(of device: IIODevice, directory: String = "/run/udev/data")
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

extension IIOMotionDevice: MotionDevice {
  /// An IIO sensor has no buttons.
  public var capabilities: MotionCapabilities {
    MotionCapabilities(hasGyroscope: imu.gyroscope != nil, keyCodes: [])
  }
  public var deviceInfo: DeviceInfo? { info }

  /// The buffers enabled and the nodes open while motion is read.
  public func follow(_ use: DeviceUse) throws { try follow(open: use.motion) }

  public func readSteps(ready: Set<Int32>) throws -> [MotionStep]? { try read(ready: ready) }

  /// An IIO buffer is read as its scans come (not batched).
  public var readInterval: Double? {
    get { nil }
    set {}
  }

  public func wakeDelay(until t: Double) -> Double? { wallDelay(until: t) }
  public func timeOfWake(_ t: Double) -> Double { handOutNow() }
}
