import SystemCalls

// The loop's one clock is part of its API; the rest of the system-call layer is not.
@_exported import struct SystemCalls.MonotonicInstant

/// Something that shares an ``EventLoop``'s one `poll()`: an HTTP server, a
/// second device, an app's own descriptors. Before each wait the loop asks
/// every participant for its descriptors and its deadline; after the wait it
/// calls `service(ready:)` with those of its descriptors that are readable
/// (empty when its deadline passed with none).
public protocol LoopParticipant: AnyObject {
  /// Watched for `POLLIN`; may change between turns.
  var pollDescriptors: [Int32] { get }
  /// When to be served without input (monotonic clock); `nil` for none.
  var deadline: MonotonicInstant? { get }
  /// After the wait; `ready` may be empty at a deadline.
  func service(ready: Set<Int32>) throws
}

/// One wait of a loop, seen from its participants: what each asked for
/// before the wait (descriptors, deadline), so that after it each is served
/// by what it asked. A deadline is judged against the time after the wait:
/// a participant that asks for "now" (libmicrohttpd with work in hand) is
/// served on that turn, not left to spin the loop.
struct ParticipantTurn {
  let participants: [any LoopParticipant]
  private let asked: [(descriptors: [Int32], deadline: MonotonicInstant?)]

  init(_ participants: [any LoopParticipant]) {
    self.participants = participants
    asked = participants.map { ($0.pollDescriptors, $0.deadline) }
  }

  /// Every participant's descriptors, to watch in the wait.
  var descriptors: [Int32] { asked.flatMap(\.descriptors) }
  /// The earliest deadline of any participant.
  var deadline: MonotonicInstant? { asked.compactMap(\.deadline).min() }

  /// Calls each participant whose descriptors are ready, or whose deadline
  /// has come, with its ready descriptors.
  func serve(ready: Set<Int32>) throws {
    let now = MonotonicInstant.now
    for (participant, asked) in zip(participants, asked) {
      let mine = ready.intersection(asked.descriptors)
      if !mine.isEmpty || (asked.deadline.map { $0 <= now } ?? false) {
        try participant.service(ready: mine)
      }
    }
  }
}

/// Seconds on the monotonic clock as a `Double`, for code that measures
/// intervals by hand; the loop's deadlines are ``MonotonicInstant``s.
public enum LoopClock {
  /// Now, in monotonic seconds.
  public static func now() -> Double { MonotonicInstant.now.secondsValue }
}
