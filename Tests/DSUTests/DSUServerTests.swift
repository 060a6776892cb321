import Foundation
import SystemCalls
import Testing

@testable import DSU

@Suite(.serialized) struct DSUServerTests {
  @Test func versionAndPortInfoAreAnsweredWithoutOpeningTheDevice() throws {
    let harness = try ServerHarness()
    let version = try harness.answers(to: RequestBytes.version(), expecting: 1)
    #expect(version.count == 1)
    #expect(version.first?.count == 24)
    let ports = try harness.answers(to: RequestBytes.portInfo([0, 1, 2, 3]), expecting: 4)
    #expect(ports.map { $0[20] } == [0, 1, 2, 3])
    #expect(ports.map { $0[21] } == [2, 0, 0, 0])  // slot 0 connected
    #expect(ports.first?[22] == 2)  // the demo has a gyroscope
    #expect(!harness.server.hasOpenDevice)
  }

  @Test(arguments: BadDatagramTable.rows)
  func badDatagramIsDroppedCountedAndTheServerKeepsServing(row: BadDatagramTable.Row) throws {
    let harness = try ServerHarness()
    #expect(try harness.answers(to: row.bytes, within: 0.05).isEmpty)
    #expect(harness.server.counters.malformed[row.reason.name] == 1)
    #expect(harness.server.counters.malformedTotal == 1)
    #expect(!harness.server.hasOpenDevice)
    #expect(try harness.answers(to: RequestBytes.version(), expecting: 1).count == 1)
  }

  @Test func answersAreLimitedTo20ASecondPerAddress() throws {
    let harness = try ServerHarness()
    for _ in 0..<30 { try harness.send(RequestBytes.version()) }
    let answers = try harness.collect(for: 0.3)
    #expect(answers.count == 20)
    #expect(harness.server.counters.rateLimited == 10)
  }

  @Test func aDatagramFromOutsideTheAllowListGetsNothing() throws {
    let harness = try ServerHarness(allowList: AllowList(ranges: [CIDRRange("10.0.0.0/8")!]))
    #expect(try harness.answers(to: RequestBytes.version(), within: 0.1).isEmpty)
    #expect(try harness.answers(to: RequestBytes.padData(), within: 0.1).isEmpty)
    #expect(harness.server.counters.notAllowed == 2)
    #expect(harness.server.counters.datagramsReceived == 0)
    #expect(!harness.server.hasOpenDevice)
  }

  @Test func aSubscriptionOpensTheDeviceAndStreamsNumberedPackets() throws {
    let harness = try ServerHarness()
    try harness.send(RequestBytes.padData())
    let packets = try harness.collect(for: 2) { $0.count >= 25 }
    #expect(harness.server.hasOpenDevice)
    try #require(packets.count >= 25)
    #expect(packets.allSatisfy { $0.count == 100 && $0[20] == 0 && $0[31] == 1 })
    let numbers = packets.map { UInt32($0[32]) | UInt32($0[33]) << 8 }
    #expect(numbers == (0..<UInt32(packets.count)).map { $0 })
    let stamps = packets.map { bytes in
      (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[68 + $1]) << (8 * UInt64($1)) }
    }
    #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $1 - $0 == 4000 })  // 250 Hz
    // The demo starts at rest, face up: (0, -1, 0) g.
    let y = Float(
      bitPattern: packets[0][80...].prefix(4).enumerated().reduce(UInt32(0)) {
        $0 | UInt32($1.element) << (8 * $1.offset)
      })
    #expect(abs(y + 1) < 0.02)
  }

  @Test func aSlotSubscriptionToAnEmptySlotOpensNothing() throws {
    let harness = try ServerHarness()
    #expect(try harness.answers(to: RequestBytes.padData(flags: 1, slot: 2), within: 0.2).isEmpty)
    #expect(!harness.server.hasOpenDevice)
  }

  @Test func anAddressInUseIsNamed() throws {
    let first = try ServerHarness()
    #expect(throws: DSUServerError.addressInUse(host: "127.0.0.1", port: first.server.port)) {
      _ = try DSUServer(
        host: "127.0.0.1", port: first.server.port, allowList: AllowList(ranges: []),
        selection: .recording(path: ServerHarness.demo))
    }
  }
}
