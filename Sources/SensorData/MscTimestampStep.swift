/// How one `MSC_TIMESTAMP` follows the one before: the one rule for the
/// 32-bit µs counter, for the decoder's clock and for `info`'s rate probe.
public enum MscTimestampStep: Hashable, Sendable {
  /// Forward by `micros` µs; `wrapped` when the counter passed 2³² on the way.
  case forward(micros: UInt32, wrapped: Bool)
  /// Back by more than a wrap explains (a step of 2³¹ µs or more forward):
  /// the device restarted its counter, and a new time line begins.
  case reset

  public init(from previous: UInt32, to current: UInt32) {
    let step = current &- previous
    self = step < UInt32(1) << 31 ? .forward(micros: step, wrapped: current < previous) : .reset
  }
}
