/// Why the service could not start or go on.
public enum MotionServiceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No session bus to connect to (`DBUS_SESSION_BUS_ADDRESS` unset, or naming nothing there).
  case noSessionBus(BusError, address: String?)
  /// Another connection owns the name.
  case nameTaken(String)
  /// The bus refused what the service asked at its start.
  case bus(BusError)
  /// The connection to the bus was lost while serving.
  case lost(BusError)

  public var description: String {
    switch self {
    case .noSessionBus(let error, let address):
      let place =
        address.map { "DBUS_SESSION_BUS_ADDRESS=\($0)" }
        ?? "DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus is not there"
      return "no session bus (\(place)): \(error.errno); run it in a desktop session, "
        + "or start one with dbus-run-session"
    case .nameTaken(let name):
      return "\(name) is already owned on the session bus: another 'tilt-cli service' is "
        + "running (busctl --user status \(name))"
    case .bus(let error):
      return "the session bus refused the service: \(error)"
    case .lost(let error):
      return "lost the session bus (\(error)); the claims ended"
    }
  }
}
