import Attitude
import EvdevCore

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
}
