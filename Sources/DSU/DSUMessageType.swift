/// The DSU message types; an answer carries the type of its request.
public enum DSUMessageType: UInt32, Sendable, CaseIterable {
  /// The protocol version (0x100000).
  case version = 0x10_0000
  /// The slots' information (0x100001).
  case portInfo = 0x10_0001
  /// Motion (0x100002): a request subscribes, answers stream.
  case padData = 0x10_0002
}
