import Glibc

/// A moment on the monotonic clock (`CLOCK_MONOTONIC`): what the event loop's
/// deadlines are measured on. It never jumps with the wall clock; it does not
/// advance while the machine is suspended.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// Nanoseconds since the clock's arbitrary origin (about the boot).
  public var nanoseconds: Int64

  public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

  /// Now (`clock_gettime(CLOCK_MONOTONIC)`).
  public static var now: MonotonicInstant {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return MonotonicInstant(nanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
  }

  /// The time from `self` to `later` (negative when `later` is earlier).
  public func duration(to later: MonotonicInstant) -> Duration {
    .nanoseconds(later.nanoseconds - nanoseconds)
  }

  /// The time left until `self` from now; zero when it has passed.
  public var timeLeft: Duration { max(.zero, MonotonicInstant.now.duration(to: self)) }

  public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool {
    a.nanoseconds < b.nanoseconds
  }

  public static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: instant.nanoseconds + duration.nanoseconds)
  }

  public static func - (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: instant.nanoseconds - duration.nanoseconds)
  }

  /// The time between two instants.
  public static func - (later: MonotonicInstant, earlier: MonotonicInstant) -> Duration {
    earlier.duration(to: later)
  }

  public var description: String { "\(Double(nanoseconds) / 1e9) s (monotonic)" }
}

extension Duration {
  /// The whole duration in nanoseconds (attoseconds truncated).
  public var nanoseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }

  /// The duration in seconds, for arithmetic with the sample clock.
  public var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

extension MonotonicInstant {
  /// The instant in monotonic seconds, for times kept as a `Double`.
  public var secondsValue: Double { Double(nanoseconds) / 1e9 }

  /// The instant `seconds` after the clock's origin, rounded up: a deadline
  /// made from it is never early.
  public init(secondsValue seconds: Double) {
    self.init(nanoseconds: Int64((seconds * 1e9).rounded(.up)))
  }
}
