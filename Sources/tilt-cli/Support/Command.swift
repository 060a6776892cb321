/// One `tilt-cli` subcommand: its help, what it accepts, and how it runs.
protocol Command {
  static var name: String { get }
  static var overview: String { get }
  /// The usage line after `tilt-cli`.
  static var usage: String { get }
  /// The help's `ARGUMENTS:` and `OPTIONS:` sections, without `--help`.
  static var help: String { get }
  static var spec: CommandLineArguments.Spec { get }
  /// Runs the command; returns the exit status.
  static func run(_ arguments: CommandLineArguments) throws -> Int32
}

extension Command {
  static var helpText: String {
    """
    OVERVIEW: \(overview)

    USAGE: tilt-cli \(usage)

    \(help)
      -h, --help              Show help information.

    """
  }
}
