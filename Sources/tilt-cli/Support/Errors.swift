import CommandLineOptions

/// A mistake in how the command was called: exit status 64, the usage on stderr.
typealias UsageError = CommandLineOptions.UsageError

/// Exit statuses of contract §3.11.
typealias ExitStatus = CommandLineOptions.ExitStatus

/// Any other failure: one clear line on stderr, exit status 1.
struct Failure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
