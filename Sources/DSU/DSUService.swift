import SystemCalls

/// The DSU protocol's server side without sockets or devices: what to answer
/// a datagram from an address, whom to send a slot's motion, when
/// subscriptions lapse. Time is given (monotonic seconds), never read, so
/// that tests drive the lapse and the rate limit.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
package final class DSUService {
  /// Limits of what the server answers.
  package struct Limits: Sendable {
    /// Seconds a subscription lives after its last request.
    package var lapse = 5.0
    /// Clients subscribed at once.
    package var clients = 16
    /// Version and port-info answers a second per address.
    package var answersPerSecond = 20

    package init() {}
  }

  /// Something a person watching the server would want to know.
  package enum Change: Hashable, Sendable {
    case subscribed(SocketAddress)
    case lapsed(SocketAddress)
  }

  package let serverID: UInt32
  package let allowList: AllowList
  /// What each slot holds; `nil` or a disconnected state for none.
  package var slots: [DSUPortInfo?] = Array(repeating: nil, count: DSUProtocol.slotCount)
  package private(set) var counters = DSUCounters()
  private var clients: DSUClients
  private var rateLimit: AnswerRateLimit

  package init(serverID: UInt32, allowList: AllowList, limits: Limits = .init()) {
    self.serverID = serverID
    self.allowList = allowList
    clients = DSUClients(lapse: limits.lapse, capacity: limits.clients)
    rateLimit = AnswerRateLimit(limit: limits.answersPerSecond)
  }

  /// Whether a datagram from `address` may be read at all. One from outside
  /// the allow list is counted and must be dropped unread.
  package func admits(_ address: SocketAddress) -> Bool {
    if allowList.allows(address) { return true }
    counters.notAllowed += 1
    return false
  }

  /// The answers to `datagram` from `address` at `now`, to send back to it
  /// (none for a malformed datagram, a pad-data request, or beyond the rate),
  /// and the change it made to the clients.
  package func receive(_ datagram: [UInt8], from address: SocketAddress, now: Double)
    -> (answers: [[UInt8]], change: Change?)
  {
    guard let request = parse(datagram) else { return ([], nil) }
    return handle(request, from: address, now: now)
  }

  /// The request in `datagram`, or `nil` for a malformed one (counted, and
  /// never to be answered).
  package func parse(_ datagram: [UInt8]) -> DSURequest? {
    counters.datagramsReceived += 1
    switch DSUDatagramParser.parse(datagram) {
    case .success(let request): return request
    case .failure(let rejection):
      counters.malformed[rejection.name, default: 0] += 1
      return nil
    }
  }

  /// The answers to `request` from `address` at `now`, and the change it
  /// made to the clients (as ``receive(_:from:now:)``).
  package func handle(_ request: DSURequest, from address: SocketAddress, now: Double)
    -> (answers: [[UInt8]], change: Change?)
  {
    switch request.kind {
    case .version:
      guard admitAnswer(to: address, now: now) else { return ([], nil) }
      return ([DSUAnswer.version(serverID: serverID)], nil)
    case .portInfo(let wanted):
      guard admitAnswer(to: address, now: now) else { return ([], nil) }
      let answers = wanted.map { slot in
        let info = slots[Int(slot)] ?? .disconnected(slot: slot)
        return DSUAnswer.portInfo(info, serverID: serverID)
      }
      return (answers, nil)
    case .padData(let subscription):
      switch clients.subscribe(address, to: subscription, now: now) {
      case .subscribed: return ([], .subscribed(address))
      case .renewed: return ([], nil)
      case .refused:
        counters.refusedClients += 1
        return ([], nil)
      }
    }
  }

  private func admitAnswer(to address: SocketAddress, now: Double) -> Bool {
    if rateLimit.allows(address, now: now) { return true }
    counters.rateLimited += 1
    return false
  }

  /// One datagram per subscriber of `slot` carrying `motion`, each with the
  /// subscriber's next packet number; none when the slot holds no device.
  package func padData(slot: Int, motion: DSUMotion, now: Double) -> [(
    address: SocketAddress, bytes: [UInt8]
  )] {
    guard let info = slots[slot], info.state == .connected else { return [] }
    return clients.subscribers(slot: slot, mac: info.mac == .zero ? nil : info.mac, now: now)
      .map { address in
        let number = clients.takePacketNumber(address)
        return (
          address, DSUAnswer.padData(info, packetNumber: number, motion: motion, serverID: serverID)
        )
      }
  }

  /// Whether some live subscription covers `slot` (with the device's `mac`).
  package func isCovered(slot: Int, mac: MACAddress?, now: Double) -> Bool {
    !clients.subscribers(slot: slot, mac: mac, now: now).isEmpty
  }

  /// How many clients subscribe to `slot` now.
  package func subscriberCount(slot: Int, now: Double) -> Int {
    let mac = slots[slot].flatMap { $0.mac == .zero ? nil : $0.mac }
    return clients.subscribers(slot: slot, mac: mac, now: now).count
  }

  /// Forgets what lapsed by `now`; the clients gone.
  package func expire(now: Double) -> [Change] {
    clients.expire(now: now).map { .lapsed($0) }
  }

  /// When the next subscription lapses (monotonic seconds); `nil` with none.
  package var nextLapse: Double? { clients.nextLapse }

  /// Counts datagrams sent and those the socket did not take.
  package func countSent(_ sent: Bool) {
    if sent { counters.datagramsSent += 1 } else { counters.sendFailures += 1 }
  }
}
