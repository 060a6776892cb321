/// One subcommand of a program: what it accepts, its help, and how it runs.
///
/// The option declarations are the one place an option is written: the
/// parser accepts exactly them (and `-h`, `--help`), and the help, the man
/// page and the shell completions are made from them.
///
/// A command reads its options in one place, ``request(from:)``, through
/// their keys, and runs on what it read: ``run(_:)`` never sees the
/// arguments, so every option a run uses was read there, and a test can see
/// that each declared option is (``CommandLineArguments/unread``).
public protocol Command {
  /// What a run was asked for: the options and arguments, read and checked.
  associatedtype Request
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
  /// The options and arguments read through their keys, and checked
  /// together (a file's name may be checked); nothing is opened or run here.
  static func request(from arguments: CommandLineArguments) throws -> Request
  /// Runs the command as asked; returns the exit status.
  static func run(_ request: Request) throws -> Int32
}

extension Command {
  public static var arguments: [ArgumentDeclaration] { [] }
  public static var discussion: String { "" }
  public static var footer: String { "" }

  /// Every option the parser accepts, `--help` last.
  public static var acceptedOptions: [OptionDeclaration] {
    options + [StandardOptions.help.declaration]
  }

  /// Reads what `arguments` ask for, then runs it.
  public static func run(arguments: CommandLineArguments) throws -> Int32 {
    try run(request(from: arguments))
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
