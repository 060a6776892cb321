/// A 48-bit MAC address as the DSU protocol carries it: six bytes in the
/// order they are written (`aa:bb:cc:dd:ee:ff` is `[0xaa, …, 0xff]`).
public struct MACAddress: Hashable, Sendable, CustomStringConvertible {
  /// The six bytes, first to last as written.
  public var bytes: [UInt8]

  /// All zeros: what a slot without a MAC reports.
  public static let zero = MACAddress(unchecked: [0, 0, 0, 0, 0, 0])

  init(unchecked bytes: [UInt8]) { self.bytes = bytes }

  /// Six bytes, or `nil` for any other count.
  public init?(bytes: [UInt8]) {
    guard bytes.count == 6 else { return nil }
    self.bytes = bytes
  }

  /// Parses a device's `uniq` (`aa:bb:cc:dd:ee:ff`, either case); `nil` for
  /// anything else, and for the all-zero address.
  public init?(uniq: String) {
    let parts = uniq.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 6 else { return nil }
    var bytes: [UInt8] = []
    for part in parts {
      guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
      bytes.append(byte)
    }
    guard bytes != MACAddress.zero.bytes else { return nil }
    self.bytes = bytes
  }

  public var description: String {
    bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined(separator: ":")
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: Swift.max(0, width - count)) + self
  }
}
