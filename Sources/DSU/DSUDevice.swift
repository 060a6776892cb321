import SensorData
import Foundation
import IIO
import Motion

/// A motion device as a DSU slot sees it: what to open, how to know it again
/// when it comes back, and what port info says of it.
public struct DSUDevice: Hashable, Sendable {
  /// What ``Motion/DeviceMotionManager`` opens: an event node, or an IIO
  /// accelerometer's `/dev/iio:deviceN`.
  public var path: String
  /// The kernel's name for it.
  public var name: String
  /// How it is known again when it returns: its `uniq`, else its `phys`,
  /// else its path.
  public var identity: String
  /// Whether it has a gyroscope (model 2) or not (model 1).
  public var hasGyroscope: Bool
  public var connection: DSUPortInfo.Connection
  /// The MAC from its `uniq`, when that is one.
  public var mac: MACAddress?

  public init(
    path: String, name: String, identity: String, hasGyroscope: Bool,
    connection: DSUPortInfo.Connection = .notApplicable, mac: MACAddress? = nil
  ) {
    self.path = path
    self.name = name
    self.identity = identity
    self.hasGyroscope = hasGyroscope
    self.connection = connection
    self.mac = mac
  }

  /// A hub's device: its path, name and identity; model 2 with a
  /// gyroscope; the connection from its bus and the MAC from its `uniq`.
  public init(_ description: HubDeviceDescription) {
    self.init(
      path: description.path, name: description.name, identity: description.identity,
      hasGyroscope: description.hasGyroscope,
      connection: description.info.map { DSUDevice.connection(bus: $0.id.bustype) }
        ?? .notApplicable,
      mac: description.info.flatMap { MACAddress(uniq: $0.uniq) })
  }

  /// An evdev device as `devices` classified it.
  public init(path: String, info: DeviceInfo, profile: DeviceProfile) {
    self.init(HubDeviceDescription(path: path, info: info, profile: profile))
  }

  /// An IIO sensor hub's accelerometer with its gyroscope, if any, as one device.
  public init(imu: IIOIMU) {
    self.init(HubDeviceDescription(imu: imu))
  }

  /// USB (`BUS_USB`, 0x03) or Bluetooth (`BUS_BLUETOOTH`, 0x05); else not applicable.
  public static func connection(bus: UInt16) -> DSUPortInfo.Connection {
    switch bus {
    case 0x03: .usb
    case 0x05: .bluetooth
    default: .notApplicable
    }
  }

  /// What port info says of the device in `slot`.
  public func portInfo(slot: UInt8, battery: DSUPortInfo.Battery) -> DSUPortInfo {
    DSUPortInfo(
      slot: slot, state: .connected, model: hasGyroscope ? .fullGyro : .partialGyro,
      connection: connection, mac: mac ?? .zero, battery: battery)
  }
}
