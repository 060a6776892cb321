import SystemCalls

/// Something that shares the live loop's one `poll()`: an HTTP server, a
/// second device, an app's own descriptors. Before each wait the loop asks
/// every participant for its descriptors and its deadline; after the wait it
/// calls `service(ready:)` with those of its descriptors that are readable
/// (empty when its deadline passed with none).
public protocol LoopParticipant: AnyObject {
  var pollDescriptors: [Int32] { get }  // watched for POLLIN; may change between turns
  var deadline: Double? { get }  // monotonic seconds (SystemCalls' clock); nil = none
  func service(ready: Set<Int32>) throws  // after poll(); ready may be empty at a deadline
}

/// The clock of ``LoopParticipant/deadline``: seconds on `CLOCK_MONOTONIC`.
public enum LoopClock {
  /// Now, in monotonic seconds.
  public static func now() -> Double { monotonicSeconds() }
}
