import Attitude
import EvdevCore
import IIO

/// What a ``DeviceMotionManager`` reads on its loop: a live device or a
/// recording, as steps of the source's clock.
protocol MotionFeed: AnyObject {
  var hasGyroscope: Bool { get }
  var accelerometerRange: Double? { get }
  var gyroscopeRange: Double? { get }
  /// The device as the bias store knows it; `nil` for a recording.
  var storedBiasKey: DeviceInfo? { get }
  var pollDescriptors: [Int32] { get }
  var deadline: MonotonicInstant? { get }
  /// The steps that arrived, oldest first; `nil` at the end of a recording.
  func read(ready: Set<Int32>) throws -> [SourceItem]?
  /// Open and read (`true`), or closed and not read, no descriptor, no
  /// deadline (`false`).
  func follow(active: Bool) throws
  /// Seconds of sample time between the updates wanted; 0 for every sample.
  var updateInterval: Double { get set }
  /// Whether a descriptor of the source is open now.
  var isOpen: Bool { get }
  /// Closes everything at the end of a run (also a watch for a device to come back).
  func finish()
}

/// A live evdev device: its motion node only (motion has no buttons), closed
/// while stopped.
final class LiveFeed: MotionFeed {
  let device: LiveMotionDevice

  init(_ device: LiveMotionDevice) { self.device = device }

  var hasGyroscope: Bool { device.profile.gyroAxes != nil }
  var accelerometerRange: Double? { device.profile.accelerometerRange }
  var gyroscopeRange: Double? { device.profile.gyroscopeRange }
  var storedBiasKey: DeviceInfo? { device.info }
  var pollDescriptors: [Int32] { device.pollDescriptors }
  var deadline: MonotonicInstant? { device.deadline }
  /// Read once an update interval (at most as ``ReadBatching`` allows), or
  /// at each sample with 0.
  var updateInterval = 0.0 {
    didSet { device.batchInterval = updateInterval > 0 ? updateInterval : nil }
  }

  func read(ready: Set<Int32>) throws -> [SourceItem]? {
    let items = try device.read(ready: ready)
    if device.isGone { throw TiltError.deviceGone(path: device.path) }
    return items
  }

  func follow(active: Bool) throws {
    try device.follow(motionNode: active, buttonNode: false)
  }

  var isOpen: Bool { device.isMotionNodeOpen }
  func finish() { try? device.follow(motionNode: false, buttonNode: false) }
}

/// A live IIO IMU: its buffers disabled and nodes closed while stopped.
final class IIOFeed: MotionFeed {
  let device: IIOMotionDevice

  init(_ device: IIOMotionDevice) { self.device = device }

  var hasGyroscope: Bool { device.hasGyroscope }
  var accelerometerRange: Double? { nil }
  var gyroscopeRange: Double? { nil }
  var storedBiasKey: DeviceInfo? { device.info }
  var pollDescriptors: [Int32] { device.pollDescriptors }
  var deadline: MonotonicInstant? { device.deadline }
  /// An IIO buffer is read as its scans come (not batched).
  var updateInterval = 0.0

  func read(ready: Set<Int32>) throws -> [SourceItem]? {
    let items = try device.read(ready: ready)
    if device.isGone { throw TiltError.deviceGone(path: device.path) }
    return items
  }

  func follow(active: Bool) throws { try device.follow(open: active) }
  var isOpen: Bool { device.isOpen }
  func finish() { device.finish() }
}

/// The feed of a live device: an IIO IMU for an IIO node or sysfs name,
/// else an evdev node; `nil` for the first motion device found.
func liveFeed(
  path: String?, configuration: DeviceMotionConfiguration, waitsForReconnect: Bool,
  onNote: @escaping (MotionNote) -> Void
) throws -> any MotionFeed {
  let path = try path ?? DeviceChoice.firstMotionDevice()
  if IIOIMU.isIIOReference(path) {
    return IIOFeed(
      IIOMotionDevice(
        imu: try IIOUsability.imu(path), configuration: configuration,
        waitsForReconnect: waitsForReconnect, onNote: onNote))
  }
  return LiveFeed(
    try LiveMotionDevice(
      path: path, configuration: configuration, waitsForReconnect: waitsForReconnect,
      onNote: onNote))
}
