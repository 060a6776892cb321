/// A mistake in how the command was called: exit status 64, the usage on stderr.
struct UsageError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Any other failure: one clear line on stderr, exit status 1.
struct Failure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Exit statuses of SPEC §3.
enum ExitStatus {
  static let success: Int32 = 0
  static let failure: Int32 = 1
  static let usage: Int32 = 64
}
