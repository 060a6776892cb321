import SystemCalls

/// Ends a loop after a number of seconds (`record --duration`): calls
/// `requestEnd` at its deadline.
public final class EndAfter: LoopParticipant {
  let end: MonotonicInstant
  let requestEnd: () -> Void
  /// Ends `seconds` from now.
  public init(seconds: Double, requestEnd: @escaping () -> Void) {
    end = .now + .seconds(seconds)
    self.requestEnd = requestEnd
  }
  public var pollDescriptors: [Int32] { [] }
  public var deadline: MonotonicInstant? { end }
  public func service(ready: Set<Int32>) throws {
    if end <= .now { requestEnd() }
  }
}
