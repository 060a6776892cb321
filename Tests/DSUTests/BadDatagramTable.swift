import Testing

@testable import DSU

/// Every kind of malformed client datagram, with the reason it is dropped.
enum BadDatagramTable {
  struct Row: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var reason: DSURejection
    var testDescription: String { name }
  }

  static let rows: [Row] = {
    let good = RequestBytes.padData()
    var flippedPayload = good
    flippedPayload[21] ^= 0xFF
    return [
      Row(name: "empty", bytes: [], reason: .truncatedHeader(byteCount: 0)),
      Row(
        name: "header only", bytes: Array(good.prefix(16)),
        reason: .truncatedHeader(byteCount: 16)),
      Row(
        name: "server magic",
        bytes: RequestBytes.datagram(type: 0x10_0000, payload: [], magic: "DSUS"),
        reason: .badMagic),
      Row(
        name: "other magic",
        bytes: RequestBytes.datagram(type: 0x10_0000, payload: [], magic: "GET "),
        reason: .badMagic),
      Row(
        name: "version 1000",
        bytes: RequestBytes.datagram(type: 0x10_0000, payload: [], version: 1000),
        reason: .badVersion(1000)),
      Row(
        name: "length beyond the datagram",
        bytes: RequestBytes.datagram(type: 0x10_0000, payload: [], length: 200),
        reason: .badLength(declared: 200, available: 4)),
      Row(
        name: "length below the type",
        bytes: RequestBytes.datagram(type: 0x10_0000, payload: [], length: 3),
        reason: .badLength(declared: 3, available: 4)),
      Row(
        name: "CRC off by a bit",
        bytes: RequestBytes.datagram(type: 0x10_0000, payload: [], corruptCRC: true),
        reason: .badCRC(
          declared: CRC32.checksum(withZeroedCRC(RequestBytes.version())) ^ 1,
          computed: CRC32.checksum(withZeroedCRC(RequestBytes.version())))),
      Row(
        name: "payload changed after the CRC", bytes: flippedPayload,
        reason: .badCRC(
          declared: CRC32.checksum(withZeroedCRC(good)),
          computed: CRC32.checksum(withZeroedCRC(flippedPayload)))),
      Row(
        name: "unknown type",
        bytes: RequestBytes.datagram(type: 0x10_0003, payload: []),
        reason: .unknownType(0x10_0003)),
      Row(
        name: "port info without a count",
        bytes: RequestBytes.datagram(type: 0x10_0001, payload: [1, 0]),
        reason: .truncatedPayload(type: .portInfo, byteCount: 2)),
      Row(
        name: "port count 5", bytes: RequestBytes.portInfo([0, 1, 2, 3], count: 5),
        reason: .portCountOutOfRange(5)),
      Row(
        name: "port count -1", bytes: RequestBytes.portInfo([0], count: -1),
        reason: .portCountOutOfRange(-1)),
      Row(
        name: "port count above the slots sent",
        bytes: RequestBytes.datagram(type: 0x10_0001, payload: [3, 0, 0, 0, 0, 1]),
        reason: .truncatedPayload(type: .portInfo, byteCount: 6)),
      Row(
        name: "port info slot 4", bytes: RequestBytes.portInfo([0, 4]),
        reason: .slotOutOfRange(4)),
      Row(
        name: "pad data slot 9", bytes: RequestBytes.padData(flags: 1, slot: 9),
        reason: .slotOutOfRange(9)),
      Row(
        name: "pad data flags 4", bytes: RequestBytes.padData(flags: 4),
        reason: .unknownFlags(4)),
      Row(
        name: "pad data truncated",
        bytes: RequestBytes.datagram(type: 0x10_0002, payload: [1, 0]),
        reason: .truncatedPayload(type: .padData, byteCount: 2)),
    ]
  }()

  static func withZeroedCRC(_ bytes: [UInt8]) -> [UInt8] {
    var bytes = bytes
    bytes.replaceSubrange(8..<12, with: [0, 0, 0, 0])
    return bytes
  }
}
