import Foundation
import Testing

/// contract §7's malformed datagrams: each is dropped, never answered, and the
/// server goes on answering well-formed requests.
@Suite struct EndToEndBadDatagramTests {
  /// One row of the table: a name and how to spoil a well-formed request.
  struct Row: CustomTestStringConvertible, Sendable {
    var name: String
    var make: @Sendable (WireRequests) -> [UInt8]
    var testDescription: String { name }
  }

  static func resealed(_ p: [UInt8], _ change: (inout [UInt8]) -> Void) -> [UInt8] {
    var p = p
    change(&p)
    return WireRequests.sealed(p)
  }

  static let rows: [Row] = [
    Row(name: "empty") { _ in [] },
    Row(name: "shorter than a header") { Array($0.version().prefix(10)) },
    Row(name: "header without a message type") { r in
      resealed(Array(r.version().prefix(16))) { $0.wireSet(UInt16(0), at: 6) }
    },
    Row(name: "bad magic") { r in resealed(r.version()) { $0[3] = UInt8(ascii: "X") } },
    Row(name: "server's magic from a client") { r in
      resealed(r.version()) { $0[3] = UInt8(ascii: "S") }
    },
    Row(name: "version 1000") { r in resealed(r.version()) { $0.wireSet(UInt16(1000), at: 4) } },
    Row(name: "bad CRC") { r in
      var p = r.version()
      p[8] ^= 0x01
      return p
    },
    Row(name: "CRC of the packet with its CRC field in it") { r in
      var p = r.version()
      p.wireSet(UInt32(0xDEAD_BEEF), at: 8)
      p.wireSet(WireCRC32.checksum(p), at: 8)
      return p
    },
    Row(name: "length beyond the datagram") { r in
      resealed(r.portInfo(slots: [0])) { $0.wireSet(UInt16(40), at: 6) }
    },
    Row(name: "truncated port info (length says so)") { r in
      resealed(Array(r.portInfo(slots: [0]).prefix(22))) { $0.wireSet(UInt16(6), at: 6) }
    },
    Row(name: "unknown message type 0x100003") { r in
      r.packet(rawType: 0x10_0003, payload: [])
    },
    Row(name: "message type 0") { r in r.packet(rawType: 0, payload: []) },
    Row(name: "port count 5") { r in r.portInfo(slots: [0, 1, 2, 3, 0]) },
    Row(name: "port count −1") { r in
      resealed(r.portInfo(slots: [0])) { $0.wireSet(Int32(-1), at: 20) }
    },
    Row(name: "port count beyond the slots sent") { r in
      resealed(r.portInfo(slots: [0])) { $0.wireSet(Int32(3), at: 20) }
    },
    Row(name: "port info for slot 4") { r in r.portInfo(slots: [4]) },
    Row(name: "port info for slot 255 beside slot 0") { r in r.portInfo(slots: [0, 255]) },
    Row(name: "pad data for slot 4") { r in r.padData(.slot(4)) },
    Row(name: "pad data without its slot and MAC") { r in
      resealed(Array(r.padData(.all).prefix(21))) { $0.wireSet(UInt16(5), at: 6) }
    },
  ]

  @Test(arguments: rows)
  func isDroppedAndTheServerKeepsServing(_ row: Row) throws {
    let server = try DSUServerProcess(["--replay", "recordings/roll-pitch.csv"])
    let client = try server.client()
    try client.send(row.make(client.requests))
    let answers = try client.receiveAll(for: 0.5)
    #expect(answers.isEmpty, "\(row.name): \(answers.count) answers")
    // Nor does a bad datagram start a stream later.
    #expect(try client.receiveAll(for: 0.5).isEmpty, "\(row.name): a late answer")
    #expect(try client.version() == 1001, "\(row.name): the server stopped answering")
    #expect(server.process.isRunning)
    #expect(server.stop() == 0)
  }

  @Test func allRowsInARowThenAWellFormedRequestIsAnswered() throws {
    let server = try DSUServerProcess(["--replay", "recordings/roll-pitch.csv"])
    let client = try server.client()
    for row in Self.rows { try client.send(row.make(client.requests)) }
    #expect(try client.receiveAll(for: 1).isEmpty)
    #expect(try client.portInfo(slots: [0])[0]?.state == 2)
    #expect(server.stop() == 0)
  }
}
