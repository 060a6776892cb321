/// What the server dropped and sent, for the status line and the tests.
public struct DSUCounters: Hashable, Sendable {
  /// Malformed datagrams, by ``DSURejection/name``.
  public var malformed: [String: Int] = [:]
  /// Datagrams from addresses outside the allow list, dropped unread.
  public var notAllowed = 0
  /// Version and port-info requests beyond the rate per address.
  public var rateLimited = 0
  /// Pad-data requests of new clients while the table was full.
  public var refusedClients = 0
  /// Datagrams read from the socket, every kind (those not allowed aside).
  public var datagramsReceived = 0
  /// Datagrams sent, every kind.
  public var datagramsSent = 0
  /// Datagrams the socket would not take (its buffer full) or refused.
  public var sendFailures = 0

  public init() {}

  /// Every malformed datagram, all reasons.
  public var malformedTotal: Int { malformed.values.reduce(0, +) }
}
