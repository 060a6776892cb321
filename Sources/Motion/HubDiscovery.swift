import Evdev
import SensorData
import Foundation
import IIO

/// A motion device as the hub finds it, before anything is opened: what to
/// open, how to know it again when it comes back, and what it is.
public struct HubDeviceDescription: Hashable, Sendable {
  /// What is opened: an event node, an IIO accelerometer's
  /// `/dev/iio:deviceN`, or a recording's path.
  public var path: String
  /// The kernel's name for it (a recording: its path).
  public var name: String
  /// How it is known again when it returns: `uniq …`, else `phys …`, else
  /// its path (an IIO IMU: its accelerometer's sysfs directory).
  public var identity: String
  /// ``SensorData/DeviceKind/imu`` or ``SensorData/DeviceKind/accelerometer``
  /// (an IIO hub's accelerometer and gyroscope are one IMU).
  public var kind: DeviceKind
  public var hasGyroscope: Bool
  /// An evdev device's description (bus, `uniq`, `phys`); `nil` for IIO and recordings.
  public var info: DeviceInfo?
  /// The node, as ``MotionNode`` decided it; `nil` for a recording, or a
  /// node named but not found usable (opening it says why).
  public var node: MotionNode?

  public init(
    path: String, name: String, identity: String, kind: DeviceKind, hasGyroscope: Bool,
    info: DeviceInfo? = nil, node: MotionNode? = nil
  ) {
    self.path = path
    self.name = name
    self.identity = identity
    self.kind = kind
    self.hasGyroscope = hasGyroscope
    self.info = info
    self.node = node
  }

  /// An evdev node as `devices` classified it.
  public init(path: String, info: DeviceInfo, profile: DeviceProfile) {
    let identity =
      !info.uniq.isEmpty ? "uniq " + info.uniq : !info.phys.isEmpty ? "phys " + info.phys : path
    self.init(
      path: path, name: info.name, identity: identity, kind: profile.kind,
      hasGyroscope: profile.gyroAxes != nil, info: info, node: .evdev(path: path))
  }

  /// An IIO IMU: its accelerometer with the gyroscope of its hub, as one device.
  public init(imu: IIOIMU) {
    self.init(
      path: imu.accelerometer.nodePath, name: imu.name,
      identity: "iio " + imu.accelerometer.sysfsPath,
      kind: imu.gyroscope != nil ? .imu : .accelerometer, hasGyroscope: imu.gyroscope != nil,
      node: .iio(imu))
  }
}

/// Which motion devices there are: every evdev IMU and accelerometer that
/// `devices` lists, then every usable IIO IMU, in the order found; or those
/// named. Joysticks are not motion devices and are left out.
public enum HubDiscovery {
  /// What one scan found.
  public struct Found: Sendable {
    /// The devices, in the order found.
    public var devices: [HubDeviceDescription]
    /// Event nodes that could not be opened (permissions), with why.
    public var unreadable: [DeviceError]

    package init(devices: [HubDeviceDescription], unreadable: [DeviceError]) {
      self.devices = devices
      self.unreadable = unreadable
    }
  }

  /// Scans ``DeviceChoice/inputDirectory`` and the IIO devices; with `named`
  /// paths, only those: a named node that is there but could not be
  /// classified (no read access) stays, as itself, so that opening it says
  /// why; one that is not there is left out until it appears.
  public static func scan(named: [String] = []) -> Found {
    found(in: DeviceListing.scan(), named: named)
  }

  /// What ``scan(named:)`` finds in `listing`.
  public static func found(in listing: DeviceListing, named: [String] = []) -> Found {
    var devices: [HubDeviceDescription] = []
    var unreadable: [DeviceError] = []
    for entry in listing.entries {
      if let error = entry.device.openError { unreadable.append(error) }
      guard let info = entry.device.info, let profile = entry.profile,
        profile.kind == .imu || profile.kind == .accelerometer
      else { continue }
      devices.append(HubDeviceDescription(path: entry.device.path, info: info, profile: profile))
    }
    for imu in IIOIMU.group(listing.iioDevices) where IIOUsability.reason(for: imu) == nil {
      devices.append(HubDeviceDescription(imu: imu))
    }
    guard !named.isEmpty else { return Found(devices: devices, unreadable: unreadable) }
    let chosen = named.compactMap { path in
      devices.first { $0.path == path || names(path, $0, listing.iioDevices) }
        ?? (FileManager.default.fileExists(atPath: path)
          ? HubDeviceDescription(
            path: path, name: path, identity: path, kind: .imu, hasGyroscope: true) : nil)
    }
    return Found(devices: chosen, unreadable: [])
  }

  /// Whether `path` names `device`'s IIO IMU by its gyroscope or sysfs directory.
  private static func names(_ path: String, _ device: HubDeviceDescription, _ iio: [IIODevice])
    -> Bool
  {
    guard MotionNode.isIIO(path), let imu = IIOIMU.find(path, in: iio) else { return false }
    return imu.accelerometer.nodePath == device.path
  }
}
