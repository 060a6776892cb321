/// A client's datagram, checked and typed.
public struct DSURequest: Hashable, Sendable {
  /// What the client asks.
  public enum Kind: Hashable, Sendable {
    /// The highest protocol version the server speaks.
    case version
    /// The information of these slots (each 0 to 3; at most 4, maybe none).
    case portInfo(slots: [UInt8])
    /// Motion for the slots `subscription` covers, from now on.
    case padData(DSUSubscription)
  }

  public var kind: Kind
  /// The client's id from the header (the same for one run of the client).
  public var senderID: UInt32

  public init(kind: Kind, senderID: UInt32) {
    self.kind = kind
    self.senderID = senderID
  }
}

/// What a pad-data request asks for: every slot, or one slot, or the device
/// with one MAC (a request may name both a slot and a MAC: it then covers either).
public struct DSUSubscription: Hashable, Sendable {
  /// The slot asked for, 0 to 3; `nil` when the request does not name one.
  public var slot: UInt8?
  /// The MAC asked for; `nil` when the request does not name one.
  public var mac: MACAddress?

  /// Every slot.
  public static let allSlots = DSUSubscription(slot: nil, mac: nil)

  public init(slot: UInt8? = nil, mac: MACAddress? = nil) {
    self.slot = slot
    self.mac = mac
  }

  /// Whether the subscription covers the device in `slot` with `mac`.
  public func covers(slot: Int, mac: MACAddress?) -> Bool {
    if self.slot == nil && self.mac == nil { return true }
    if let wanted = self.slot, Int(wanted) == slot { return true }
    if let wanted = self.mac, let mac, wanted == mac { return true }
    return false
  }
}
