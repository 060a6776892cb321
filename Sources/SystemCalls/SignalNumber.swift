import Glibc

/// The signals tilt handles, as the numbers `SignalPipe` and `sigaction` take.
package enum SignalNumber {
  /// Ctrl-C. The corresponding C constant is `SIGINT`.
  package static let interrupt: Int32 = SIGINT
  /// A request to end. The corresponding C constant is `SIGTERM`.
  package static let terminate: Int32 = SIGTERM
  /// The terminal changed size. The corresponding C constant is `SIGWINCH`.
  package static let windowChange: Int32 = SIGWINCH
  /// A write to a pipe or socket with no reader. The corresponding C constant is `SIGPIPE`.
  package static let brokenPipe: Int32 = SIGPIPE
}
