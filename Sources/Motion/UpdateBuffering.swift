/// What the loop does when the consumer of an update sequence falls behind.
public enum UpdateBuffering: Hashable, Sendable {
  /// Keeps the newest `count` updates the consumer has not taken yet and
  /// drops older ones. The loop never waits: a device is read on time.
  case newest(Int)
  /// Keeps up to `count` updates, then the loop waits until the consumer
  /// takes one: nothing is dropped. For replays: a device left unread that
  /// long loses events in the kernel's queue (`SYN_DROPPED`).
  case waitsForConsumer(Int)
}
