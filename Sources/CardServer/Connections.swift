import CMicroHTTPD
import SystemCalls

/// One open connection as the server keeps it: whose it is, and by when the
/// request under way must be finished.
///
/// libmicrohttpd's own timeout is an idle one (any byte restarts it, so one
/// byte every few seconds holds a connection for good) and would also end a
/// silent event stream; the server keeps a deadline per request instead: from
/// the connection's start, or the end of its previous request, to the end of
/// this one. An open `/frames` stream has none.
final class TrackedConnection {
  let handle: OpaquePointer
  let socket: Int32
  let peer: PeerKey
  /// When the request under way must be finished; nil
  /// for an event stream.
  var deadline: MonotonicInstant?
  /// Shut down by the server (its deadline passed, or it made room):
  /// libmicrohttpd closes it on its next turn.
  var cut = false
  /// Order of arrival, to cut the oldest unfinished first.
  let serial: Int

  init(handle: OpaquePointer, socket: Int32, peer: PeerKey, deadline: MonotonicInstant, serial: Int)
  {
    self.handle = handle
    self.socket = socket
    self.peer = peer
    self.deadline = deadline
    self.serial = serial
  }

  /// Ends the connection from under libmicrohttpd: `shutdown`, not `close`,
  /// so the descriptor stays its own until it sees the end and closes it.
  func cutOff() {
    guard !cut else { return }
    cut = true
    Socket.shutDown(socket)
  }
}

/// Whose a connection is, for the per-address limit: the IPv4 address, or
/// the /64 an IPv6 host gets (SLAAC and privacy addresses come and go inside
/// one), IPv4-mapped IPv6 as IPv4, `::1` as itself.
struct PeerKey: Hashable, Sendable, CustomStringConvertible {
  let bytes: [UInt8]

  init(bytes: [UInt8]) { self.bytes = bytes }

  init?(_ address: UnsafePointer<sockaddr>?) {
    guard let address = SocketAddress(address) else { return nil }
    let all = address.bytes
    if address.family == .ipv4 {
      bytes = all
    } else if address.isIPv4Mapped {
      bytes = Array(all[12..<16])
    } else if all[0..<15].allSatisfy({ $0 == 0 }) {
      bytes = all
    } else {
      bytes = Array(all[0..<8])
    }
  }

  var description: String {
    bytes.count == 4
      ? bytes.map { String($0) }.joined(separator: ".")
      : bytes.map { String($0, radix: 16) }.joined(separator: ":")
  }
}
