import Evdev
import Foundation
import IIO

/// The input devices with what each one is.
public struct DeviceListing: Sendable {
  public struct Entry: Sendable {
    public var device: DiscoveredDevice
    /// `nil` when the node could not be read.
    public var profile: DeviceProfile?

    package init(device: DiscoveredDevice, profile: DeviceProfile?) {
      self.device = device
      self.profile = profile
    }
  }

  public var entries: [Entry]
  /// The directory scanned.
  public var directory: String
  /// The IIO accelerometers and gyroscopes (``IIOScanner/sysfsDirectory``).
  public var iioDevices: [IIODevice] = []

  package init(entries: [Entry], directory: String, iioDevices: [IIODevice] = []) {
    self.entries = entries
    self.directory = directory
    self.iioDevices = iioDevices
  }

  /// The event nodes of ``DeviceChoice/inputDirectory``, classified.
  public static func scan() -> DeviceListing {
    let directory = DeviceChoice.inputDirectory
    let entries = DeviceScanner.scan(directory: directory).map { device in
      Entry(
        device: device,
        profile: device.info.map { info in
          // The driver from sysfs names hid-sony or hid-playstation in the notes.
          var info = info
          info.driver = UdevProperties.driver(forDevicePath: device.path)
          return DeviceProfile.classify(info)
        })
    }
    return DeviceListing(entries: entries, directory: directory, iioDevices: IIOScanner.scan())
  }
}

/// Which device a live run uses when none is named.
public enum DeviceChoice {
  /// The directory scanned for event nodes: `TILT_INPUT_DIR`, else `/dev/input`.
  public static var inputDirectory: String {
    ProcessInfo.processInfo.environment["TILT_INPUT_DIR"] ?? "/dev/input"
  }

  /// The first device that can drive the card: an evdev IMU or accelerometer,
  /// then an IIO sensor (its accelerometer's `/dev/iio:deviceN`, a gyroscope
  /// on its hub first), then a joystick.
  public static func firstMotionDeviceIfAny() -> String? {
    let listing = DeviceListing.scan()
    let usable = listing.entries.filter {
      $0.profile.map { $0.kind != .unsupported } ?? false
    }
    let rank: [DeviceKind: Int] = [.imu: 0, .accelerometer: 1, .joystick: 2]
    let best = usable.min {
      rank[$0.profile!.kind, default: 3] < rank[$1.profile!.kind, default: 3]
    }
    if let best, best.profile!.kind != .joystick { return best.device.path }
    let imus = IIOIMU.group(listing.iioDevices).filter { IIOUsability.reason(for: $0) == nil }
    if let imu = imus.first(where: { $0.gyroscope != nil }) ?? imus.first {
      return imu.accelerometer.nodePath
    }
    return best?.device.path
  }

  /// The first device with a gyroscope (`tilt-cli calibrate`): an evdev
  /// one, else an IIO IMU's accelerometer node; or why there is none.
  public static func firstGyroscopeDevice() throws -> String {
    let listing = DeviceListing.scan()
    let withGyroscope = listing.entries.first { $0.profile?.gyroAxes != nil }
    if let path = withGyroscope?.device.path { return path }
    let iio = IIOIMU.group(listing.iioDevices).first {
      $0.gyroscope != nil && IIOUsability.reason(for: $0) == nil
    }
    if let iio { return iio.accelerometer.nodePath }
    _ = try firstMotionDevice()
    throw TiltError.noGyroscopeDevice(directory: inputDirectory)
  }

  /// Like ``firstMotionDeviceIfAny()``, but says why there is none.
  public static func firstMotionDevice() throws -> String {
    if let path = firstMotionDeviceIfAny() { return path }
    let listing = DeviceListing.scan()
    let iioProblem = IIOIMU.group(listing.iioDevices).firstNonNil { imu in
      IIOUsability.reason(for: imu).map {
        TiltError.notAMotionDevice(
          path: imu.accelerometer.nodePath, name: imu.name, reason: $0, isRecording: false)
      }
    }
    if listing.entries.isEmpty, let iioProblem { throw iioProblem }
    if listing.entries.isEmpty {
      throw TiltError.noInputDevices(directory: inputDirectory)
    }
    let denied = listing.entries.filter { $0.device.openError != nil }
    if !denied.isEmpty, let error = denied.first?.device.openError {
      throw TiltError.devicesNotReadable(count: denied.count, first: error)
    }
    throw TiltError.noMotionDevice(directory: inputDirectory, count: listing.entries.count)
  }
}
