import Glibc

/// An IPv4 or IPv6 socket address (`sockaddr_in`, `sockaddr_in6`): what
/// `getaddrinfo` resolves, `getsockname` reports and a server binds.
package struct SocketAddress: Hashable, Sendable {
  /// The address family.
  package enum Family: Hashable, Sendable {
    /// The corresponding C constant is `AF_INET`.
    case ipv4
    /// The corresponding C constant is `AF_INET6`.
    case ipv6
  }

  package let family: Family
  /// The address in network order: 4 bytes (IPv4) or 16 (IPv6).
  package let bytes: [UInt8]
  /// The whole C structure, as `sockaddr` pointers hand it over.
  private let storage: [UInt8]

  /// The address `pointer` points at, or `nil` for another family or no address.
  package init?(_ pointer: UnsafePointer<sockaddr>?) {
    guard let pointer else { return nil }
    switch Int32(pointer.pointee.sa_family) {
    case AF_INET:
      family = .ipv4
      storage = Self.bytes(of: pointer, as: sockaddr_in.self)
      var address = pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
        $0.pointee.sin_addr
      }
      bytes = withUnsafeBytes(of: &address) { Array($0) }
    case AF_INET6:
      family = .ipv6
      storage = Self.bytes(of: pointer, as: sockaddr_in6.self)
      var address = pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
        $0.pointee.sin6_addr
      }
      bytes = withUnsafeBytes(of: &address) { Array($0) }
    default:
      return nil
    }
  }

  /// An IP literal (`inet_pton`): "127.0.0.1", "::1" (no brackets); `nil` for
  /// anything else.
  package init?(numericHost text: String) {
    var v4 = sockaddr_in()
    v4.sin_family = sa_family_t(AF_INET)
    if inet_pton(AF_INET, text, &v4.sin_addr) == 1 {
      self.init(rebinding: &v4)
      return
    }
    var v6 = sockaddr_in6()
    v6.sin6_family = sa_family_t(AF_INET6)
    if inet_pton(AF_INET6, text, &v6.sin6_addr) == 1 {
      self.init(rebinding: &v6)
      return
    }
    return nil
  }

  private init?<Address>(rebinding address: inout Address) {
    let made = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0) }
    }
    guard let made else { return nil }
    self = made
  }

  private static func bytes<Address>(of pointer: UnsafePointer<sockaddr>, as: Address.Type)
    -> [UInt8]
  {
    Array(UnsafeRawBufferPointer(start: pointer, count: MemoryLayout<Address>.size))
  }

  /// Whether it is an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`).
  package var isIPv4Mapped: Bool {
    family == .ipv6 && bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff
      && bytes[11] == 0xff
  }

  /// Whether it is loopback: 127.0.0.0/8, `::1`, or an IPv4-mapped 127.0.0.0/8.
  package var isLoopback: Bool {
    switch family {
    case .ipv4: return bytes[0] == 127
    case .ipv6:
      if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
      return isIPv4Mapped && bytes[12] == 127
    }
  }

  /// Calls `body` with the C structure, as a `sockaddr` pointer.
  package func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
    storage.withUnsafeBytes { raw in
      body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self))
    }
  }

  /// The first address `host` and `port` resolve to for a listening TCP
  /// socket (`getaddrinfo` with `AI_PASSIVE | AI_NUMERICSERV`), or why not,
  /// as `gai_strerror` words it.
  package static func resolveForListening(host: String, port: UInt16) -> Result<
    SocketAddress, ResolutionError
  > {
    var hints = addrinfo()
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    let code = getaddrinfo(host, String(port), &hints, &found)
    guard code == 0, let info = found else {
      return .failure(ResolutionError(message: String(cString: gai_strerror(code))))
    }
    defer { freeaddrinfo(found) }
    guard let address = SocketAddress(UnsafePointer(info.pointee.ai_addr)) else {
      return .failure(ResolutionError(message: "Address family for hostname not supported"))
    }
    return .success(address)
  }

  /// The address a socket is bound to (`getsockname`).
  package static func bound(to socket: Int32) throws(Errno) -> SocketAddress {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    try withUnsafeMutablePointer(to: &storage) { pointer throws(Errno) in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(Errno) in
        _ = try Syscall.checked("getsockname", badDescriptor: .isError) {
          getsockname(socket, address, &length)
        }
      }
    }
    guard let address = SocketAddress(rebinding: &storage) else {
      throw Errno(rawValue: EAFNOSUPPORT)
    }
    return address
  }
}

/// Why a host name did not resolve: `gai_strerror`'s words.
package struct ResolutionError: Error, Hashable, Sendable, CustomStringConvertible {
  package var message: String
  package var description: String { message }
}
