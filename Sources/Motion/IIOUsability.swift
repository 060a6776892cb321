import Foundation
import IIO

/// Why an IIO sensor can't drive the card (contract §3.1's `devices`), or `nil` when it can.
public enum IIOUsability {
  /// The IMU that `reference` (`/dev/iio:deviceN`, `iio:deviceN` or its sysfs
  /// directory) names, or an error that says why it can't drive the card or
  /// what there is.
  public static func imu(_ reference: String) throws -> IIOIMU {
    let devices = IIOScanner.scan()
    if let imu = IIOIMU.find(reference, in: devices) { return imu }
    let name = (reference as NSString).lastPathComponent
    if let device = devices.first(where: { $0.deviceName == name }),
      let reason = reason(for: device, among: devices)
    {
      throw MotionError.notAMotionDevice(
        path: reference, name: device.name, reason: reason, isRecording: false)
    }
    throw MotionError.noIIOSensor(reference: reference, directory: IIOScanner.sysfsDirectory)
  }

  /// For an IMU: `nil` when its accelerometer can be read by this user.
  public static func reason(for imu: IIOIMU) -> String? {
    [imu.accelerometer, imu.gyroscope].compactMap { $0 }.firstNonNil(accessProblem)
  }

  /// For a listed device: a gyroscope with no accelerometer on its hub, or an access problem.
  public static func reason(for device: IIODevice, among devices: [IIODevice]) -> String? {
    if !device.kinds.contains(.accelerometer),
      !devices.contains(where: { $0.kinds.contains(.accelerometer) && $0.hub == device.hub })
    {
      return
        "a gyroscope with no accelerometer on its hub (\((device.hub as NSString).lastPathComponent)) "
        + "can't tell which way is down"
    }
    return accessProblem(device)
  }

  private static func accessProblem(_ device: IIODevice) -> String? {
    let files = FileManager.default
    if device.hasBuffer {
      if !files.fileExists(atPath: device.nodePath) {
        return "\(device.nodePath) does not exist (no devtmpfs, or TILT_IIO_DEV_DIR is wrong)"
      }
      let enable = device.sysfsPath + "/buffer/enable"
      if !files.isReadableFile(atPath: device.nodePath) || !files.isWritableFile(atPath: enable) {
        return "permission denied: \(device.nodePath) and \(enable) need root, or the udev rule "
          + IIOError.udevRule + " in /etc/udev/rules.d/70-tilt-iio.rules"
      }
    } else {
      let raw =
        device.sysfsPath
        + "/in_\(device.kinds.contains(.accelerometer) ? "accel" : "anglvel")_x_raw"
      if !files.isReadableFile(atPath: raw) { return "permission denied: \(raw) is not readable" }
    }
    return nil
  }
}
