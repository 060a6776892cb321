/// A mistake in how the command was called: exit status 64, the message and
/// the usage on standard error.
public struct UsageError: Error, CustomStringConvertible {
  /// One line that says what is wrong, naming the option or argument.
  public var description: String

  /// A usage error saying `description`.
  public init(_ description: String) { self.description = description }
}

/// The exit statuses of a program run by ``CommandLineProgram``.
public enum ExitStatus {
  /// The command did what it was asked.
  public static let success: Int32 = 0
  /// Any failure but a usage error.
  public static let failure: Int32 = 1
  /// A usage error (`EX_USAGE` of sysexits.h).
  public static let usage: Int32 = 64
}
