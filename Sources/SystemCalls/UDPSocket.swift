import Glibc

/// A bound, non-blocking UDP socket (IPv4 or IPv6) that receives datagrams
/// with their sender's address and sends to any address: what a DSU server
/// needs. Closed when released.
///
/// Not thread-safe (not `Sendable`): use it from one thread.
package final class UDPSocket {
  /// The socket's descriptor, to watch for `POLLIN`.
  package let fileDescriptor: Int32
  /// The address it is bound to (the port the kernel chose for port 0).
  package let boundAddress: SocketAddress

  /// `socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC)` and
  /// `bind(address)`; an IPv6 socket also takes IPv4 (`IPV6_V6ONLY` off).
  /// Throws the `errno` of the call that failed (``Errno/addressInUse`` when
  /// another socket holds the port).
  package init(binding address: SocketAddress) throws(Errno) {
    let domain = address.family == .ipv4 ? AF_INET : AF_INET6
    let descriptor = try Syscall.checked("socket") {
      socket(domain, Int32(SOCK_DGRAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
    }
    do {
      if address.family == .ipv6 {
        var off: Int32 = 0
        try Syscall.checked("setsockopt") {
          setsockopt(
            descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
        }
      }
      let length = address.sockaddrLength
      try Syscall.checked("bind") { address.withSockaddr { bind(descriptor, $0, length) } }
      boundAddress = try SocketAddress.bound(to: descriptor)
    } catch {
      Syscall.close(descriptor)
      throw error
    }
    fileDescriptor = descriptor
  }

  /// `recvfrom(MSG_DONTWAIT)`: the next datagram (cut to `limit` bytes) and
  /// its sender (`nil` for a family other than IPv4 and IPv6), or `nil`
  /// when none is waiting.
  package func receive(limit: Int = 2048) throws(Errno) -> (
    bytes: [UInt8], sender: SocketAddress?
  )? {
    var buffer = [UInt8](repeating: 0, count: limit)
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let descriptor = fileDescriptor
    let count = try Syscall.nonBlocking("recvfrom") {
      withUnsafeMutablePointer(to: &storage) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
          buffer.withUnsafeMutableBytes { raw in
            recvfrom(descriptor, raw.baseAddress, limit, Int32(MSG_DONTWAIT), address, &length)
          }
        }
      }
    }
    guard let count else { return nil }
    let sender = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0) }
    }
    return (Array(buffer[..<min(count, limit)]), sender)
  }

  /// `sendto(MSG_DONTWAIT)`: true when the datagram went out, false when the
  /// socket's buffer is full (the datagram is dropped, as UDP may).
  @discardableResult
  package func send(_ bytes: [UInt8], to address: SocketAddress) throws(Errno) -> Bool {
    var target = address
    if boundAddress.family == .ipv6, address.family == .ipv4 { target = address.mappedToIPv6 }
    let length = target.sockaddrLength
    let descriptor = fileDescriptor
    let sent = try Syscall.nonBlocking("sendto") {
      bytes.withUnsafeBytes { raw in
        target.withSockaddr { pointer in
          sendto(descriptor, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT), pointer, length)
        }
      }
    }
    return sent != nil
  }

  deinit { Syscall.close(fileDescriptor) }
}

extension Errno {
  /// `EADDRINUSE`: another socket is bound to the address and port.
  package static let addressInUse = Errno(rawValue: EADDRINUSE)
  /// `EADDRNOTAVAIL`: the address is not one of this machine's.
  package static let addressNotAvailable = Errno(rawValue: EADDRNOTAVAIL)
}

extension SocketAddress {
  /// The port, in host order.
  package var port: UInt16 {
    withSockaddr { pointer in
      switch family {
      case .ipv4:
        pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
          UInt16(bigEndian: $0.pointee.sin_port)
        }
      case .ipv6:
        pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
          UInt16(bigEndian: $0.pointee.sin6_port)
        }
      }
    }
  }

  /// An IP literal with a port: "127.0.0.1" and 26760; `nil` when `host` is
  /// not an IPv4 or IPv6 literal.
  package init?(numericHost host: String, port: UInt16) {
    guard let address = SocketAddress(numericHost: host) else { return nil }
    self = address.withPort(port)
  }

  /// The same address with `port`.
  package func withPort(_ port: UInt16) -> SocketAddress {
    switch family {
    case .ipv4:
      var v4 = sockaddr_in()
      v4.sin_family = sa_family_t(AF_INET)
      v4.sin_port = port.bigEndian
      withUnsafeMutableBytes(of: &v4.sin_addr) { $0.copyBytes(from: bytes) }
      return SocketAddress.make(&v4)
    case .ipv6:
      var v6 = sockaddr_in6()
      v6.sin6_family = sa_family_t(AF_INET6)
      v6.sin6_port = port.bigEndian
      withUnsafeMutableBytes(of: &v6.sin6_addr) { $0.copyBytes(from: bytes) }
      return SocketAddress.make(&v6)
    }
  }

  /// An IPv4 address as `::ffff:a.b.c.d`, same port; an IPv6 one unchanged.
  package var mappedToIPv6: SocketAddress {
    guard family == .ipv4 else { return self }
    var v6 = sockaddr_in6()
    v6.sin6_family = sa_family_t(AF_INET6)
    v6.sin6_port = port.bigEndian
    let mapped: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + bytes
    withUnsafeMutableBytes(of: &v6.sin6_addr) { $0.copyBytes(from: mapped) }
    return SocketAddress.make(&v6)
  }

  /// The size of the C structure, as `bind` and `sendto` take it.
  var sockaddrLength: socklen_t {
    socklen_t(family == .ipv4 ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
  }

  private static func make<Address>(_ address: inout Address) -> SocketAddress {
    withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0)! }
    }
  }
}
