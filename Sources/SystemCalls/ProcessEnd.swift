import Glibc

/// How the process ends.
package enum ProcessEnd {
  /// Ends the process with `status` (`exit`: the C output streams, standard
  /// output's buffer among them, are flushed first).
  package static func exit(_ status: Int32) -> Never {
    Glibc.exit(status)
  }
}
