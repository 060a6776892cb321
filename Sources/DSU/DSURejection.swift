/// Why a client's datagram was dropped. None is ever answered: a server that
/// answered malformed datagrams would tell a spoofed sender what it wants.
public enum DSURejection: Error, Hashable, Sendable, CustomStringConvertible {
  /// Fewer bytes than the header and the message type (20).
  case truncatedHeader(byteCount: Int)
  /// Not `DSUC` (a server's `DSUS` included).
  case badMagic
  /// A protocol version other than 1001.
  case badVersion(UInt16)
  /// The header's length (after the 16 header bytes) is below the 4 bytes of
  /// the type or beyond the datagram.
  case badLength(declared: Int, available: Int)
  /// The CRC-32 does not match the datagram's bytes.
  case badCRC(declared: UInt32, computed: UInt32)
  /// A message type the protocol does not have.
  case unknownType(UInt32)
  /// The message's payload is shorter than its type needs.
  case truncatedPayload(type: DSUMessageType, byteCount: Int)
  /// A port-info count below 0 or above 4.
  case portCountOutOfRange(Int32)
  /// A slot above 3.
  case slotOutOfRange(UInt8)
  /// Pad-data registration flags other than slot (1) and MAC (2).
  case unknownFlags(UInt8)

  /// A short name for counting, one per case.
  public var name: String {
    switch self {
    case .truncatedHeader: "truncated header"
    case .badMagic: "bad magic"
    case .badVersion: "bad version"
    case .badLength: "bad length"
    case .badCRC: "bad CRC"
    case .unknownType: "unknown type"
    case .truncatedPayload: "truncated payload"
    case .portCountOutOfRange: "port count out of range"
    case .slotOutOfRange: "slot out of range"
    case .unknownFlags: "unknown flags"
    }
  }

  public var description: String {
    switch self {
    case .truncatedHeader(let count): "\(count) bytes, fewer than a header and a type (20)"
    case .badMagic: "magic is not DSUC"
    case .badVersion(let version): "protocol version \(version), not 1001"
    case .badLength(let declared, let available):
      "length \(declared) with \(available) bytes after the header"
    case .badCRC(let declared, let computed):
      "CRC-32 \(hex(declared)), the bytes give \(hex(computed))"
    case .unknownType(let type): "unknown message type \(hex(type))"
    case .truncatedPayload(let type, let count): "\(type) payload of \(count) bytes is too short"
    case .portCountOutOfRange(let count): "port count \(count), not 0 to 4"
    case .slotOutOfRange(let slot): "slot \(slot), not 0 to 3"
    case .unknownFlags(let flags): "registration flags \(flags), not 0 to 3"
    }
  }
}

private func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16) }
