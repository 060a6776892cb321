import SystemCalls

/// The clients that subscribed to pad data: what each asked for, until when,
/// and its packet number. A subscription lapses `lapse` seconds after the
/// last request that renewed it; a client with none left is forgotten. Time
/// is given, never read.
struct DSUClients {
  struct Client {
    /// Each subscription with the time it lapses.
    var subscriptions: [DSUSubscription: Double] = [:]
    /// The packet number of the next pad-data datagram to it.
    var nextPacketNumber: UInt32 = 0
  }

  /// Seconds a subscription lives after its last request.
  var lapse: Double
  /// Clients at once; a new one beyond them is refused.
  var capacity: Int
  private(set) var clients: [SocketAddress: Client] = [:]

  init(lapse: Double, capacity: Int) {
    self.lapse = lapse
    self.capacity = capacity
  }

  enum Renewal: Equatable {
    /// A new client.
    case subscribed
    /// A known client's request.
    case renewed
    /// A new client while ``capacity`` are subscribed.
    case refused
  }

  /// Subscribes `address` for `subscription` until `now` + ``lapse``.
  mutating func subscribe(_ address: SocketAddress, to subscription: DSUSubscription, now: Double)
    -> Renewal
  {
    let isNew = clients[address] == nil
    if isNew && clients.count >= capacity { return .refused }
    clients[address, default: Client()].subscriptions[subscription] = now + lapse
    return isNew ? .subscribed : .renewed
  }

  /// Forgets the subscriptions that lapsed at `now`; returns the clients left
  /// with none (forgotten too).
  mutating func expire(now: Double) -> [SocketAddress] {
    var gone: [SocketAddress] = []
    for (address, var client) in clients {
      client.subscriptions = client.subscriptions.filter { $0.value > now }
      if client.subscriptions.isEmpty {
        gone.append(address)
        clients[address] = nil
      } else {
        clients[address] = client
      }
    }
    return gone
  }

  /// When the next subscription lapses; `nil` with none.
  var nextLapse: Double? { clients.values.flatMap(\.subscriptions.values).min() }

  /// The clients whose live subscriptions cover the device in `slot` with `mac`.
  func subscribers(slot: Int, mac: MACAddress?, now: Double) -> [SocketAddress] {
    clients.compactMap { address, client in
      client.subscriptions.contains { $0.value > now && $0.key.covers(slot: slot, mac: mac) }
        ? address : nil
    }
  }

  /// Takes the next packet number of `address` (0 first).
  mutating func takePacketNumber(_ address: SocketAddress) -> UInt32 {
    guard let number = clients[address]?.nextPacketNumber else { return 0 }
    clients[address]?.nextPacketNumber = number &+ 1
    return number
  }
}
