/// A positional argument, for the help's ARGUMENTS section and the completions.
public struct ArgumentDeclaration: Sendable {
  /// The placeholder: `FILE`.
  public var name: String
  /// The help's description, laid out as an option's.
  public var help: String
  /// What a shell offers for it.
  public var completion: OptionDeclaration.Completion

  /// A positional argument; most complete a path.
  public init(name: String, help: String, completion: OptionDeclaration.Completion = .file) {
    self.name = name
    self.help = help
    self.completion = completion
  }
}

/// The options every command takes.
public enum StandardOptions {
  /// `-h`, `--help`: the command prints its help instead of running.
  public static let help = Flag("help", short: "h", help: "Show help information.")
}
