import Evdev
import Foundation
import IIO
import Motion

/// The devices a DSU server serves: every evdev IMU and accelerometer that
/// `devices` lists, then every usable IIO IMU, in the order found; or those
/// named. Joysticks are not motion and are left out.
public enum DSUDiscovery {
  /// What one scan found.
  public struct Found: Sendable {
    /// The devices, in the order found.
    public var devices: [DSUDevice]
    /// Event nodes that could not be opened (permissions), with why.
    public var unreadable: [DeviceError]
  }

  /// Scans ``Motion/DeviceChoice/inputDirectory`` and the IIO devices;
  /// with `named` paths, only those: a named node that is there but could
  /// not be classified (no read access) stays, as itself, so that opening it
  /// says why; one that is not there is left out until it appears.
  public static func scan(named: [String] = []) -> Found {
    let listing = DeviceListing.scan()
    var devices: [DSUDevice] = []
    var unreadable: [DeviceError] = []
    for entry in listing.entries {
      if let error = entry.device.openError { unreadable.append(error) }
      guard let info = entry.device.info, let profile = entry.profile,
        profile.kind == .imu || profile.kind == .accelerometer
      else { continue }
      devices.append(DSUDevice(path: entry.device.path, info: info, profile: profile))
    }
    for imu in IIOIMU.group(listing.iioDevices) where IIOUsability.reason(for: imu) == nil {
      devices.append(DSUDevice(imu: imu))
    }
    guard !named.isEmpty else { return Found(devices: devices, unreadable: unreadable) }
    let chosen = named.compactMap { path in
      devices.first { $0.path == path || matchesIIO(path, $0, listing.iioDevices) }
        ?? (FileManager.default.fileExists(atPath: path)
          ? DSUDevice(path: path, name: path, identity: path, hasGyroscope: true) : nil)
    }
    return Found(devices: chosen, unreadable: [])
  }

  private static func matchesIIO(_ path: String, _ device: DSUDevice, _ iio: [IIODevice]) -> Bool {
    guard IIOIMU.isIIOReference(path), let imu = IIOIMU.find(path, in: iio) else { return false }
    return imu.accelerometer.nodePath == device.path
  }
}
