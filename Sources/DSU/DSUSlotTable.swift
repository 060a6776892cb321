/// Which device holds which of the four slots. A device keeps its slot while
/// plugged; one that returns (same identity) gets its old slot back when it
/// is free; a new one takes the first free slot that no absent device held,
/// else any free slot.
struct DSUSlotTable {
  /// The identity in each slot; `nil` when free.
  private(set) var held: [String?] = Array(repeating: nil, count: DSUProtocol.slotCount)
  /// The slot each identity held last.
  private var remembered: [String: Int] = [:]

  /// The slot of `identity`: the one it holds, its old one, or a free one;
  /// `nil` when all four are taken.
  mutating func assign(_ identity: String) -> Int? {
    if let slot = held.firstIndex(of: identity) { return slot }
    let free = held.indices.filter { held[$0] == nil }
    let slot =
      remembered[identity].flatMap { free.contains($0) ? $0 : nil }
      ?? free.first { index in !remembered.values.contains(index) } ?? free.first
    guard let slot else { return nil }
    held[slot] = identity
    remembered[identity] = slot
    return slot
  }

  /// Frees `slot` (its device went away); the slot is remembered for it.
  mutating func release(_ slot: Int) { held[slot] = nil }
}
