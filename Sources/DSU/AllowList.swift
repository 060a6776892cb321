import SystemCalls

/// An IPv4 or IPv6 network in CIDR notation (`192.168.1.0/24`, `fd00::/8`;
/// a bare address is a network of one).
public struct CIDRRange: Hashable, Sendable, CustomStringConvertible {
  /// The network's address bytes, 4 or 16.
  public let network: [UInt8]
  /// The prefix length, 0 to 32 or 0 to 128.
  public let prefixLength: Int
  public let description: String

  /// Parses `text`, or `nil` when it is not an IP literal with an optional
  /// `/N` in range.
  public init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let address = SocketAddress(numericHost: String(parts[0]))
    else { return nil }
    let bits = address.bytes.count * 8
    let length = parts.count == 2 ? Int(parts[1]) : bits
    guard let length, (0...bits).contains(length), parts.count == 1 || !parts[1].hasPrefix("+")
    else { return nil }
    network = address.bytes
    prefixLength = length
    description = text
  }

  /// Whether `address` is in the network; an IPv4-mapped IPv6 address
  /// (`::ffff:a.b.c.d`) is matched as its IPv4 address.
  package func contains(_ address: SocketAddress) -> Bool {
    var bytes = address.bytes
    if network.count == 4, address.isIPv4Mapped { bytes = Array(bytes[12...]) }
    guard bytes.count == network.count else { return false }
    var remaining = prefixLength
    for (mine, theirs) in zip(network, bytes) where remaining > 0 {
      let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
      if mine & mask != theirs & mask { return false }
      remaining -= 8
    }
    return true
  }
}

/// Who the server answers: every address when bound to loopback (a
/// loopback socket hears only this machine), else those in the ranges
/// `--allow` gave. A datagram from anyone else is dropped unread.
public struct AllowList: Hashable, Sendable {
  /// The ranges; empty with ``allowsEveryone`` on loopback.
  public var ranges: [CIDRRange]
  /// True when bound to loopback with no range given.
  public var allowsEveryone: Bool

  public init(ranges: [CIDRRange], allowsEveryone: Bool = false) {
    self.ranges = ranges
    self.allowsEveryone = allowsEveryone
  }

  /// Whether a datagram from `address` may be read.
  package func allows(_ address: SocketAddress) -> Bool {
    allowsEveryone || ranges.contains { $0.contains(address) }
  }
}

extension AllowList {
  /// Who a server bound to `host` answers: with ranges, those; without, every
  /// local client when `host` is a loopback address; `nil` for another
  /// address without ranges (it would answer the network: a usage error).
  public static func forListening(host: String, ranges: [CIDRRange]) -> AllowList? {
    if !ranges.isEmpty { return AllowList(ranges: ranges) }
    guard let address = SocketAddress(numericHost: host), address.isLoopback else { return nil }
    return AllowList(ranges: [], allowsEveryone: true)
  }
}
