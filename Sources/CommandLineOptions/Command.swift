/// One subcommand of a program: what it accepts, its help, and how it runs.
///
/// The option declarations are the one place an option is written: the
/// parser accepts exactly them (and `-h`, `--help`), and the help, the man
/// page and the shell completions are made from them.
public protocol Command {
  /// The word that picks the command; `""` for the program run without one.
  static var name: String { get }
  /// One sentence: what the command does.
  static var overview: String { get }
  /// The usage line after the program's name.
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
  public static var arguments: [ArgumentDeclaration] { [] }
  public static var discussion: String { "" }
  public static var footer: String { "" }

  /// Every option the parser accepts, `--help` last.
  public static var acceptedOptions: [OptionDeclaration] {
    options + [StandardOptions.help.declaration]
  }

  /// `arguments` parsed against the declarations.
  public static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineArguments {
    try CommandLineArguments(
      arguments, options: acceptedOptions, maxPositionals: Self.arguments.count)
  }

  /// The help, its usage line after `program`.
  public static func helpText(program: String) -> String {
    var sections: [String] = []
    if !arguments.isEmpty { sections.append(HelpText.argumentsSection(arguments)) }
    if !discussion.isEmpty { sections.append(discussion) }
    return HelpText.render(
      program: program, overview: overview, usage: usage, sections: sections,
      options: acceptedOptions, footer: footer)
  }
}
