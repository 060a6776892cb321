/// Checks a client's datagram and types it, or says why it is dropped.
///
/// The checks, in order: at least the 20 bytes of a header and a type, the
/// magic `DSUC`, version 1001, the header's length (the type's 4 bytes at
/// least, no more than the datagram has; bytes beyond it are ignored, as the
/// protocol says), the CRC-32 over the declared bytes with the CRC field
/// zeroed, a known type, and the type's payload (a port count of 0 to 4,
/// slots 0 to 3, registration flags 0 to 3). Pure: no I/O, no allocation
/// beyond the result.
public enum DSUDatagramParser {
  /// The request in `datagram`, or why it is dropped.
  public static func parse(_ datagram: [UInt8]) -> Result<DSURequest, DSURejection> {
    parse(datagram[...])
  }

  /// As ``parse(_:)-([UInt8])``, on a slice.
  public static func parse(_ datagram: ArraySlice<UInt8>) -> Result<DSURequest, DSURejection> {
    let bytes = datagram
    let headerSize = DSUProtocol.headerSize
    guard bytes.count >= headerSize + 4 else {
      return .failure(.truncatedHeader(byteCount: bytes.count))
    }
    guard bytes.prefix(4).elementsEqual(DSUProtocol.clientMagic) else {
      return .failure(.badMagic)
    }
    let version: UInt16 = bytes.littleEndian(at: 4)
    guard version == DSUProtocol.version else { return .failure(.badVersion(version)) }
    let length = Int(bytes.littleEndian(at: 6, as: UInt16.self))
    let available = bytes.count - headerSize
    guard length >= 4, length <= available else {
      return .failure(.badLength(declared: length, available: available))
    }
    let packet = bytes.prefix(headerSize + length)
    let declared: UInt32 = bytes.littleEndian(at: 8)
    let computed = CRC32.checksum(
      packet.prefix(8) + [0, 0, 0, 0] + packet.dropFirst(12))
    guard declared == computed else {
      return .failure(.badCRC(declared: declared, computed: computed))
    }
    let sender: UInt32 = bytes.littleEndian(at: 12)
    let rawType: UInt32 = bytes.littleEndian(at: 16)
    guard let type = DSUMessageType(rawValue: rawType) else {
      return .failure(.unknownType(rawType))
    }
    let payload = packet.dropFirst(headerSize + 4)
    return kind(of: type, payload: payload).map { DSURequest(kind: $0, senderID: sender) }
  }

  private static func kind(of type: DSUMessageType, payload: ArraySlice<UInt8>)
    -> Result<DSURequest.Kind, DSURejection>
  {
    switch type {
    case .version:
      return .success(.version)
    case .portInfo:
      guard payload.count >= 4 else {
        return .failure(.truncatedPayload(type: type, byteCount: payload.count))
      }
      let count: Int32 = payload.littleEndian(at: 0)
      guard (0...Int32(DSUProtocol.slotCount)).contains(count) else {
        return .failure(.portCountOutOfRange(count))
      }
      guard payload.count >= 4 + Int(count) else {
        return .failure(.truncatedPayload(type: type, byteCount: payload.count))
      }
      let slots = Array(payload.dropFirst(4).prefix(Int(count)))
      if let slot = slots.first(where: { Int($0) >= DSUProtocol.slotCount }) {
        return .failure(.slotOutOfRange(slot))
      }
      return .success(.portInfo(slots: slots))
    case .padData:
      guard payload.count >= 8 else {
        return .failure(.truncatedPayload(type: type, byteCount: payload.count))
      }
      let flags = payload[payload.startIndex]
      guard flags & ~0b11 == 0 else { return .failure(.unknownFlags(flags)) }
      var subscription = DSUSubscription.allSlots
      if flags & 1 != 0 {
        let slot = payload[payload.startIndex + 1]
        guard Int(slot) < DSUProtocol.slotCount else { return .failure(.slotOutOfRange(slot)) }
        subscription.slot = slot
      }
      if flags & 2 != 0 {
        subscription.mac = MACAddress(unchecked: Array(payload.dropFirst(2).prefix(6)))
      }
      return .success(.padData(subscription))
    }
  }
}
