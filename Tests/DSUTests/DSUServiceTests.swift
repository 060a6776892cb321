import SystemCalls
import Testing

@testable import DSU

/// The server's core with the time given: lapse, renewal, client limit.
@Suite struct DSUServiceTests {
  static let client = SocketAddress(numericHost: "127.0.0.1", port: 40000)!

  func service() -> DSUService {
    let service = DSUService(serverID: 1, allowList: AllowList(ranges: [], allowsEveryone: true))
    service.slots[0] = DSUPortInfo(slot: 0, state: .connected, model: .fullGyro)
    return service
  }

  @Test func aSubscriptionLapsesFiveSecondsAfterTheLastRequest() {
    let service = service()
    #expect(
      service.receive(RequestBytes.padData(), from: Self.client, now: 100).change
        == .subscribed(Self.client))
    #expect(service.isCovered(slot: 0, mac: nil, now: 104.9))
    #expect(service.expire(now: 104.9).isEmpty)
    #expect(service.receive(RequestBytes.padData(), from: Self.client, now: 103).change == nil)
    #expect(service.isCovered(slot: 0, mac: nil, now: 107.9))
    #expect(service.nextLapse == 108)
    #expect(!service.isCovered(slot: 0, mac: nil, now: 108))
    #expect(service.expire(now: 108) == [.lapsed(Self.client)])
    #expect(service.nextLapse == nil)
  }

  @Test func packetNumbersCountPerClientFromZero() {
    let service = service()
    let other = SocketAddress(numericHost: "127.0.0.1", port: 40001)!
    _ = service.receive(RequestBytes.padData(), from: Self.client, now: 0)
    let motion = DSUMotion(timestampMicroseconds: 1, acceleration: (0, -1, 0), gyroscope: (0, 0, 0))
    _ = service.padData(slot: 0, motion: motion, now: 1)
    _ = service.receive(RequestBytes.padData(flags: 1, slot: 0), from: other, now: 1)
    let sent = service.padData(slot: 0, motion: motion, now: 2)
    let numbers = Dictionary(uniqueKeysWithValues: sent.map { ($0.address, $0.bytes[32]) })
    #expect(numbers == [Self.client: 1, other: 0])
  }

  @Test func aSlotSubscriptionCoversThatSlotOnly() {
    let service = service()
    service.slots[1] = DSUPortInfo(slot: 1, state: .connected, model: .fullGyro)
    _ = service.receive(RequestBytes.padData(flags: 1, slot: 1), from: Self.client, now: 0)
    #expect(!service.isCovered(slot: 0, mac: nil, now: 1))
    #expect(service.isCovered(slot: 1, mac: nil, now: 1))
  }

  @Test func aMACSubscriptionCoversTheDeviceWithThatMAC() {
    let service = service()
    let mac = MACAddress(uniq: "a0:5a:5e:01:02:03")!
    _ = service.receive(RequestBytes.padData(flags: 2, mac: mac.bytes), from: Self.client, now: 0)
    #expect(service.isCovered(slot: 3, mac: mac, now: 1))
    #expect(!service.isCovered(slot: 3, mac: nil, now: 1))
  }

  @Test func atMost16Clients() {
    let service = service()
    for port in 0..<17 {
      _ = service.receive(
        RequestBytes.padData(),
        from: SocketAddress(numericHost: "127.0.0.1", port: UInt16(50000 + port))!,
        now: 0)
    }
    #expect(service.counters.refusedClients == 1)
    #expect(service.subscriberCount(slot: 0, now: 1) == 16)
  }

  @Test func theRateLimitWindowMovesOn() {
    let service = service()
    for _ in 0..<25 { _ = service.receive(RequestBytes.version(), from: Self.client, now: 10) }
    #expect(service.counters.rateLimited == 5)
    #expect(service.receive(RequestBytes.version(), from: Self.client, now: 11).answers.count == 1)
  }

  @Test func padDataRequestsAreNeverAnswered() {
    let service = service()
    #expect(service.receive(RequestBytes.padData(), from: Self.client, now: 0).answers.isEmpty)
  }
}
