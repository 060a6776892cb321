import Evdev
import Foundation

/// Which device `live` and `record` use when no `--device` is given.
enum DeviceChoice {
  /// The directory scanned for event nodes: `TILT_INPUT_DIR`, else `/dev/input`.
  static var inputDirectory: String {
    ProcessInfo.processInfo.environment["TILT_INPUT_DIR"] ?? "/dev/input"
  }

  /// The first device that can drive the card: an IMU or accelerometer before a joystick.
  static func firstMotionDeviceIfAny() -> String? {
    let usable = DeviceListing.scan().entries.filter {
      $0.profile.map { $0.kind != .unsupported } ?? false
    }
    let rank: [DeviceKind: Int] = [.imu: 0, .accelerometer: 1, .joystick: 2]
    return usable.min { rank[$0.profile!.kind, default: 3] < rank[$1.profile!.kind, default: 3] }?
      .device.path
  }

  /// Like ``firstMotionDeviceIfAny()``, but says why there is none.
  static func firstMotionDevice() throws -> String {
    if let path = firstMotionDeviceIfAny() { return path }
    let listing = DeviceListing.scan()
    if listing.entries.isEmpty {
      throw Failure(
        "no input devices in \(inputDirectory); attach a motion sensor or joystick, or pass --device PATH"
      )
    }
    let denied = listing.entries.filter { $0.device.openError != nil }
    if !denied.isEmpty, let error = denied.first?.device.openError {
      throw Failure("no usable motion device; \(denied.count) could not be opened: \(error)")
    }
    throw Failure(
      "no motion device among \(listing.entries.count) input devices; see 'tilt-cli devices' for why each can't drive the card"
    )
  }
}
