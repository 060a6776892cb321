@testable import DSU

/// Client datagrams built byte by byte for the tests (independent of the
/// server's encoder): a header with a CRC that matches unless told otherwise.
enum RequestBytes {
  static func datagram(
    type: UInt32, payload: [UInt8], magic: String = "DSUC", version: UInt16 = 1001,
    length: Int? = nil, sender: UInt32 = 0xC0FFEE, corruptCRC: Bool = false
  ) -> [UInt8] {
    var bytes = Array(magic.utf8)
    bytes += le(version)
    bytes += le(UInt16(length ?? 4 + payload.count))
    bytes += [0, 0, 0, 0]
    bytes += le(sender)
    bytes += le(type)
    bytes += payload
    var crc = CRC32.checksum(bytes.prefix(16 + (length ?? 4 + payload.count)))
    if corruptCRC { crc ^= 1 }
    bytes.replaceSubrange(8..<12, with: le(crc))
    return bytes
  }

  static func version() -> [UInt8] { datagram(type: 0x10_0000, payload: []) }

  static func portInfo(_ slots: [UInt8], count: Int32? = nil) -> [UInt8] {
    datagram(
      type: 0x10_0001,
      payload: le(UInt32(bitPattern: count ?? Int32(slots.count)))
        + (slots + [0, 0, 0, 0]).prefix(4))
  }

  static func padData(flags: UInt8 = 0, slot: UInt8 = 0, mac: [UInt8] = [0, 0, 0, 0, 0, 0])
    -> [UInt8]
  {
    datagram(type: 0x10_0002, payload: [flags, slot] + mac)
  }

  static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }
}
