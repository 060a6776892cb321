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

  /// The first device that can drive the card: of the hub's devices
  /// (``HubDiscovery``), an evdev IMU, then an evdev accelerometer, then an
  /// IIO sensor (its accelerometer's `/dev/iio:deviceN`, a gyroscope on its
  /// hub first); else a joystick.
  public static func firstMotionDeviceIfAny() -> String? {
    let listing = DeviceListing.scan()
    let devices = HubDiscovery.found(in: listing).devices
    let evdev = devices.filter { if case .evdev = $0.node { true } else { false } }
    if let best = evdev.first(where: { $0.kind == .imu }) ?? evdev.first { return best.path }
    let iio = devices.filter { if case .iio = $0.node { true } else { false } }
    if let best = iio.first(where: \.hasGyroscope) ?? iio.first { return best.path }
    return listing.entries.first { $0.profile?.kind == .joystick }?.device.path
  }

  /// The first device with a gyroscope (`tilt-cli calibrate`): of the
  /// hub's devices, an evdev one, else an IIO IMU's accelerometer node; or
  /// why there is none.
  public static func firstGyroscopeDevice() throws -> String {
    let devices = HubDiscovery.scan().devices.filter(\.hasGyroscope)
    let evdev = devices.first { if case .evdev = $0.node { true } else { false } }
    if let path = (evdev ?? devices.first)?.path { return path }
    _ = try firstMotionDevice()
    throw MotionError.noGyroscopeDevice(directory: inputDirectory)
  }

  /// Like ``firstMotionDeviceIfAny()``, but says why there is none.
  public static func firstMotionDevice() throws -> String {
    if let path = firstMotionDeviceIfAny() { return path }
    let listing = DeviceListing.scan()
    let iioProblem = IIOIMU.group(listing.iioDevices).firstNonNil { imu in
      IIOUsability.reason(for: imu).map {
        MotionError.notAMotionDevice(
          path: imu.accelerometer.nodePath, name: imu.name, reason: $0, isRecording: false)
      }
    }
    if listing.entries.isEmpty, let iioProblem { throw iioProblem }
    if listing.entries.isEmpty {
      throw MotionError.noInputDevices(directory: inputDirectory)
    }
    let denied = listing.entries.filter { $0.device.openError != nil }
    if !denied.isEmpty, let error = denied.first?.device.openError {
      throw MotionError.devicesNotReadable(count: denied.count, first: error)
    }
    throw MotionError.noMotionDevice(directory: inputDirectory, count: listing.entries.count)
  }
}
