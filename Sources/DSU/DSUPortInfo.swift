/// What the server says of one slot: the 11 bytes that begin both a port-info
/// and a pad-data answer.
public struct DSUPortInfo: Hashable, Sendable {
  /// Whether a device is in the slot.
  public enum State: UInt8, Sendable {
    case disconnected = 0
    case reserved = 1
    case connected = 2
  }

  /// How much motion the device reports.
  public enum Model: UInt8, Sendable {
    case notApplicable = 0
    /// An accelerometer alone.
    case partialGyro = 1
    /// An accelerometer and a gyroscope.
    case fullGyro = 2
  }

  /// How the device is attached.
  public enum Connection: UInt8, Sendable {
    case notApplicable = 0
    case usb = 1
    case bluetooth = 2
  }

  /// The protocol's battery levels.
  public enum Battery: UInt8, Sendable {
    case notApplicable = 0x00
    case dying = 0x01
    case low = 0x02
    case medium = 0x03
    case high = 0x04
    case full = 0x05
    case charging = 0xEE
    case charged = 0xEF
  }

  /// 0 to 3.
  public var slot: UInt8
  public var state: State
  public var model: Model
  public var connection: Connection
  public var mac: MACAddress
  public var battery: Battery

  public init(
    slot: UInt8, state: State, model: Model = .notApplicable,
    connection: Connection = .notApplicable, mac: MACAddress = .zero,
    battery: Battery = .notApplicable
  ) {
    self.slot = slot
    self.state = state
    self.model = model
    self.connection = connection
    self.mac = mac
    self.battery = battery
  }

  /// An empty slot: state 0, the rest zero.
  public static func disconnected(slot: UInt8) -> DSUPortInfo {
    DSUPortInfo(slot: slot, state: .disconnected)
  }

  /// The 11 bytes: slot, state, model, connection, MAC, battery.
  var bytes: [UInt8] {
    [slot, state.rawValue, model.rawValue, connection.rawValue] + mac.bytes + [battery.rawValue]
  }
}
