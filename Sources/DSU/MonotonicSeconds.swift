import SystemCalls

extension MonotonicInstant {
  /// The instant in seconds, as the server's time-given parts take it.
  var secondsValue: Double { Double(nanoseconds) / 1e9 }

  /// The instant `seconds` stands for.
  init(secondsValue seconds: Double) { self.init(nanoseconds: Int64((seconds * 1e9).rounded(.up))) }
}
