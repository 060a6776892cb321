import Foundation
import Testing

/// `tilt-cli dsu --replay` answered by a client written from the protocol's
/// description: version, port info, pad data and its subscription's life.
@Suite struct EndToEndAnswerTests {
  static let recording = "recordings/roll-pitch.csv"

  @Test func answersTheVersion() throws {
    let server = try DSUServerProcess(["--replay", Self.recording])
    let client = try server.client()
    #expect(try client.version() == 1001)
    #expect(server.stop() == 0)
  }

  @Test func portInfoHasTheReplayInSlotZeroAndNothingElse() throws {
    let server = try DSUServerProcess(["--replay", Self.recording])
    let client = try server.client()
    let info = try client.portInfo(slots: [0, 1, 2, 3])
    #expect(info.keys.sorted() == [0, 1, 2, 3])
    #expect(info[0]?.state == 2)
    #expect(info[0]?.model == 2, "the recording has a gyroscope: full gyro")
    for slot: UInt8 in 1...3 { #expect(info[slot]?.state == 0, "slot \(slot)") }
    // One slot asked, one answer, for that slot.
    let one = try client.portInfo(slots: [2])
    #expect(one.keys.sorted() == [2])
    #expect(one[2]?.state == 0)
    #expect(server.stop() == 0)
  }

  @Test func padDataCountsFromZeroPerClientAndKeepsTheControlsNeutral() throws {
    let server = try DSUServerProcess(["--replay", Self.recording])
    let first = try server.client()
    let a = try first.padData(.all, for: 1.0)
    let second = try server.client()
    let b = try second.padData(.slot(0), for: 1.0)
    for (name, packets) in [("all", a), ("slot 0", b)] {
      try #require(
        packets.count > 50, "\(name): \(packets.count) packets in 1 s of a 100 Hz replay")
      #expect(packets.map(\.packetNumber) == (0..<UInt32(packets.count)).map { $0 }, "\(name)")
      #expect(packets.allSatisfy { $0.info.slot == 0 && $0.info.state == 2 && $0.connected == 1 })
      #expect(packets.allSatisfy { $0.sticks == [128, 128, 128, 128] })
      #expect(
        packets.allSatisfy { p in
          p.controls.enumerated().allSatisfy { $0.offset >= 4 && $0.offset < 8 || $0.element == 0 }
        })
      #expect(packets.allSatisfy { $0.touches.allSatisfy { $0 == 0 } })
    }
    #expect(server.stop() == 0)
  }

  /// A MAC subscription covers only the device with that MAC: the replay
  /// has none (port info says 0), so a request for another MAC gets nothing
  /// and one by slot still flows. (VM scenario 37 subscribes a real pad by
  /// its MAC.)
  @Test func subscribingByAnotherMacGetsNothing() throws {
    let server = try DSUServerProcess(["--replay", Self.recording])
    let client = try server.client()
    let mac = try #require(try client.portInfo(slots: [0])[0]?.mac)
    #expect(mac == [0, 0, 0, 0, 0, 0], "a recording has no MAC")
    #expect(try client.padData(.mac([0x02, 0x11, 0x22, 0x33, 0x44, 0x55]), for: 1.0).isEmpty)
    #expect(try client.padData(.slot(0), for: 0.5).count > 20)
    #expect(server.stop() == 0)
  }

  @Test func aSubscriptionLapsesFiveSecondsAfterTheLastRequest() throws {
    let server = try DSUServerProcess(["--replay", Self.recording])
    let client = try server.client()
    try client.send(client.requests.padData(.all))
    let start = Date()
    var last: Double?
    var count = 0
    while Date().timeIntervalSince(start) < 7.5 {
      guard case .padData = try client.receive(timeout: 0.2) else { continue }
      last = Date().timeIntervalSince(start)
      count += 1
    }
    let lastPacket = try #require(last, "no pad data after one request")
    #expect(count > 300, "\(count) packets")
    #expect(lastPacket > 4.5 && lastPacket < 5.8, "last packet \(lastPacket) s after the request")
    // Lapsed, the server still answers, and a new request subscribes again.
    #expect(try client.version() == 1001)
    #expect(try client.padData(.all, for: 0.5).count > 20)
    #expect(server.stop() == 0)
  }
}
