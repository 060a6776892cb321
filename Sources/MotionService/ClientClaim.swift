import Attitude

/// One client's claim on one device: its interval and its reference.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
final class ClientClaim {
  /// The client's unique name on the bus.
  let client: String
  var pacer: SignalPacer
  /// The attitude the client's attitudes are relative to (relative to the
  /// device's start); `nil` until the next sample gives it.
  var reference: Attitude?
  /// Signals sent to this client for this device.
  var signalsSent = 0

  init(client: String, interval: Double) {
    self.client = client
    pacer = SignalPacer(interval: interval)
  }
}
