import PollLoop

extension MonotonicInstant {
  /// Monotonic seconds, for rates and announcements timed by hand.
  var secondsValue: Double { Double(nanoseconds) / 1e9 }

  /// The instant `seconds` after the clock's origin, rounded up: a deadline
  /// built from it is never early.
  init(secondsValue seconds: Double) {
    self.init(nanoseconds: Int64((seconds * 1e9).rounded(.up)))
  }
}
