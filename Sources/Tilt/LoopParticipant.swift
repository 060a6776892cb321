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

/// One wait of a loop, seen from its participants: what each asked for
/// before the wait (descriptors, deadline), so that after it each is served
/// by what it asked. A deadline is judged against the time after the wait:
/// a participant that asks for "now" (libmicrohttpd with work in hand) is
/// served on that turn, not left to spin the loop.
struct ParticipantTurn {
  let participants: [any LoopParticipant]
  private let asked: [(descriptors: [Int32], deadline: Double?)]

  init(_ participants: [any LoopParticipant]) {
    self.participants = participants
    asked = participants.map { ($0.pollDescriptors, $0.deadline) }
  }

  /// Every participant's descriptors, to watch in the wait.
  var descriptors: [Int32] { asked.flatMap(\.descriptors) }
  /// The earliest deadline of any participant (monotonic seconds).
  var deadline: Double? { asked.compactMap(\.deadline).min() }

  /// Calls each participant whose descriptors are ready, or whose deadline
  /// has come, with its ready descriptors.
  func serve(ready: Set<Int32>) throws {
    let now = monotonicSeconds()
    for (participant, asked) in zip(participants, asked) {
      let mine = ready.intersection(asked.descriptors)
      if !mine.isEmpty || (asked.deadline.map { $0 <= now } ?? false) {
        try participant.service(ready: mine)
      }
    }
  }
}
