import Glibc

/// Socket calls on a connected socket that another library (libmicrohttpd)
/// owns: tilt only looks at it or shuts it down, never closes it.
package enum Socket {
  /// What a peek at a socket found.
  package enum Peek: Hashable, Sendable {
    /// Bytes are waiting.
    case data
    /// Nothing yet (`EAGAIN`).
    case nothing
    /// The peer hung up (0 bytes), or the socket failed.
    case closed(Errno?)
  }

  /// `recv(socket, 1 byte, MSG_PEEK | MSG_DONTWAIT)`: whether the peer sent
  /// bytes, hung up, or neither; nothing is consumed.
  package static func peek(_ socket: Int32) -> Peek {
    var byte: UInt8 = 0
    do {
      let count = try Syscall.nonBlocking("recv", badDescriptor: .isError) {
        recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
      }
      guard let count else { return .nothing }
      return count > 0 ? .data : .closed(nil)
    } catch {
      return .closed(error)
    }
  }

  /// `shutdown(socket, SHUT_RDWR)`: ends the connection; the descriptor stays open.
  package static func shutDown(_ socket: Int32) {
    _ = shutdown(socket, Int32(SHUT_RDWR))
  }
}
