import Glibc

/// How the process hands its buffered output to the kernel and ends.
package enum ProcessEnd {
  /// `fflush(NULL)`: every C output stream, standard output's buffer among
  /// them (the C global `stdout` is mutable state Swift 6 does not let us read).
  package static func flushStandardStreams() { fflush(nil) }

  /// Flushes the C output streams and ends the process with `status` (`exit`).
  package static func exit(_ status: Int32) -> Never {
    Glibc.exit(status)
  }
}
