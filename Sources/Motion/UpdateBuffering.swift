/// What the loop does when the consumer of an update sequence falls behind.
/// The loop's thread never waits for a consumer: a device, a paced replay
/// and every participant of the loop keep their pace whatever the consumer does.
public enum UpdateBuffering: Hashable, Sendable {
  /// Keeps the newest `count` updates the consumer has not taken yet and
  /// drops older ones: a consumer that resumes gets the latest motion.
  case newest(Int)
  /// For a replay at full speed (no pace to keep): the consumer paces the
  /// reading. Once `count` updates are waiting the loop reads no more of the
  /// recording, and sleeps in its `poll()` until the consumer takes one:
  /// nothing is dropped. A device or a paced replay has a pace to keep: for
  /// them this is ``newest(_:)`` with the same count.
  case waitsForConsumer(Int)

  /// What `input` gets: ``waitsForConsumer(_:)`` only for a replay at full speed.
  package func fitted(to input: MotionInput) -> UpdateBuffering {
    guard case .waitsForConsumer(let count) = self, !input.isFullSpeedReplay else { return self }
    return .newest(count)
  }
}

extension MotionInput {
  /// A recording or source taken as fast as it goes: there is no pace to keep.
  package var isFullSpeedReplay: Bool {
    switch self {
    case .recording(_, nil), .source(nil, _): return true
    default: return false
    }
  }
}
