import SystemCalls

/// Why the DSU server could not start.
public enum DSUServerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Another program (often another DSU server) holds the UDP port.
  case addressInUse(host: String, port: UInt16)
  /// The socket could not be made or bound, for another reason.
  case cannotListen(host: String, port: UInt16, Errno)
  /// HOST is not an IPv4 or IPv6 literal.
  case notAnAddress(String)

  public var description: String {
    switch self {
    case .addressInUse(let host, let port):
      return "UDP port \(port) on \(host) is already in use (another DSU server such as "
        + "evdevhook2, DS4Windows or a second tilt-cli dsu?); stop it, or serve on another port "
        + "with --listen \(host):PORT and give the emulator that port"
    case .cannotListen(let host, let port, let errno):
      return "cannot listen on udp://\(host):\(port): \(errno)"
    case .notAnAddress(let host):
      return "'\(host)' is not an IP address (give one like 127.0.0.1 or ::1)"
    }
  }
}
