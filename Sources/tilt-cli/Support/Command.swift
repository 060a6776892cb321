/// One `tilt-cli` subcommand: what it accepts, its help, and how it runs.
///
/// The option declarations are the one place an option is written: the
/// parser accepts exactly them (and `-h`, `--help`), and the help, the man
/// page and the shell completions are made from them.
protocol Command {
  static var name: String { get }
  static var overview: String { get }
  /// The usage line after `tilt-cli`.
  static var usage: String { get }
  /// The positional arguments, in order: the most the command takes.
  static var arguments: [ArgumentDeclaration] { get }
  /// Text between the help's `ARGUMENTS:` and `OPTIONS:` sections, as printed.
  static var discussion: String { get }
  /// Text after the `OPTIONS:` section.
  static var footer: String { get }
  /// The options, in the order the help lists them, without `--help`.
  static var options: [OptionDeclaration] { get }
  /// Runs the command; returns the exit status.
  static func run(_ arguments: CommandLineArguments) throws -> Int32
}

extension Command {
  static var arguments: [ArgumentDeclaration] { [] }
  static var discussion: String { "" }
  static var footer: String { "" }

  /// Every option the parser accepts, `--help` last.
  static var acceptedOptions: [OptionDeclaration] { options + [StandardOptions.help] }

  /// `arguments` parsed against the declarations.
  static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineArguments {
    try CommandLineArguments(
      arguments, options: acceptedOptions, maxPositionals: Self.arguments.count)
  }

  static var helpText: String {
    var sections: [String] = []
    if !arguments.isEmpty { sections.append(HelpText.argumentsSection(arguments)) }
    if !discussion.isEmpty { sections.append(discussion) }
    return HelpText.render(
      overview: overview, usage: usage, sections: sections, options: acceptedOptions,
      footer: footer)
  }
}
