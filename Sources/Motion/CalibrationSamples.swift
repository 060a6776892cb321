import Attitude
import Evdev
import IIO
import SensorData
import SystemCalls

/// Where ``GyroCalibrator`` reads its samples: a live device, read as `live`
/// reads it (card frame, g and rad/s), in a `poll()` loop.
protocol CalibrationSamples: AnyObject {
  /// The name `calibrate` shows and the bias store keys by.
  var info: DeviceInfo { get }
  /// Descriptors to wait on.
  var pollDescriptors: [Int32] { get }
  /// When ``read(ready:)`` is due without a ready descriptor (a polled
  /// sensor); `nil` for none.
  var deadline: MonotonicInstant? { get }
  /// The samples that arrived; `ready` are the descriptors `poll()` found readable.
  func read(ready: Set<Int32>) throws -> [MotionSample]
  /// Closes the device (an IIO buffer is disabled).
  func close()
}

/// An evdev node, decoded as `live` decodes it.
final class EvdevCalibrationSamples: CalibrationSamples {
  let info: DeviceInfo
  private let device: LiveDevice
  private var decoder: SampleDecoder

  init(devicePath: String, configuration: DeviceMotionConfiguration) throws {
    device = try LiveDevice(path: devicePath)
    info = device.info
    let profile = try DeviceSetup.liveProfile(
      of: devicePath, info: info, configuration: configuration, onNote: MotionNote.toStandardError)
    guard profile.gyroAxes != nil else {
      device.close()
      throw MotionError.noGyroscope(path: devicePath, name: info.name)
    }
    decoder = SampleDecoder(profile: profile, stickRange: configuration.stickRangeDegrees)
  }

  var pollDescriptors: [Int32] { [device.fileDescriptor] }
  var deadline: MonotonicInstant? { nil }

  func read(ready: Set<Int32>) throws -> [MotionSample] {
    guard ready.contains(device.fileDescriptor) else { return [] }
    return try device.readFrames().compactMap { decoder.decode($0)?.item.motion }
  }

  func close() { device.close() }
}

/// An IIO IMU (accelerometer and the gyroscope of its hub), read as `live`
/// reads it (``IIOMotionDevice``): the same mount matrix, sign rule and
/// timing, and the bias store's key for it.
final class IIOCalibrationSamples: CalibrationSamples {
  let info: DeviceInfo
  private let device: IIOMotionDevice

  init(imu: IIOIMU, reference: String, configuration: DeviceMotionConfiguration) throws {
    guard imu.gyroscope != nil else {
      throw MotionError.noGyroscope(path: reference, name: imu.accelerometer.name)
    }
    // Measured afresh: the stored bias is not read.
    device = IIOMotionDevice(
      imu: imu, configuration: configuration, onNote: MotionNote.toStandardError)
    try device.follow(open: true)
    info = device.info
  }

  var pollDescriptors: [Int32] { device.pollDescriptors }
  var deadline: MonotonicInstant? { device.deadline }

  func read(ready: Set<Int32>) throws -> [MotionSample] {
    let items = try device.read(ready: ready)
    if device.isGone { throw MotionError.deviceGone(path: device.path) }
    return items.compactMap(\.motion)
  }

  func close() { device.finish() }
}
