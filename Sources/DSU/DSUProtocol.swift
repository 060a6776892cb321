/// The fixed numbers of the DSU ("cemuhook") protocol, version 1001.
///
/// The protocol is UDP, little-endian, with a 16-byte header on every
/// datagram (v1993/cemuhook-protocol).
public enum DSUProtocol {
  /// The protocol version both sides write in the header.
  public static let version: UInt16 = 1001
  /// The port a DSU server listens on unless told otherwise.
  public static let defaultPort: UInt16 = 26760
  /// The header's size in bytes: magic, version, length, CRC-32, sender id.
  public static let headerSize = 16
  /// The magic of a client's datagram, `DSUC`.
  public static let clientMagic: [UInt8] = Array("DSUC".utf8)
  /// The magic of a server's datagram, `DSUS`.
  public static let serverMagic: [UInt8] = Array("DSUS".utf8)
  /// The number of pad slots the protocol addresses (0 to 3).
  public static let slotCount = 4
}
