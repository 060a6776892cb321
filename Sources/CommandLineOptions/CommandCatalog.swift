/// What the completions and the man page are made from: a program's name and
/// every command's declarations, the program without a command first.
public struct CommandCatalog: Sendable {
  /// One command as the generators see it.
  public struct Entry: Sendable {
    /// `""` for the program without a command.
    public var name: String
    /// ``Command/overview``.
    public var overview: String
    /// ``Command/usage``.
    public var usage: String
    /// ``Command/arguments``.
    public var arguments: [ArgumentDeclaration]
    /// ``Command/discussion``.
    public var discussion: String
    /// Every option the command accepts, `--help` included.
    public var options: [OptionDeclaration]

    /// An entry from its parts.
    public init(
      name: String, overview: String, usage: String, arguments: [ArgumentDeclaration],
      discussion: String, options: [OptionDeclaration]
    ) {
      self.name = name
      self.overview = overview
      self.usage = usage
      self.arguments = arguments
      self.discussion = discussion
      self.options = options
    }

    /// The entry of `command`.
    public init(_ command: any Command.Type) {
      self.init(
        name: command.name, overview: command.overview, usage: command.usage,
        arguments: command.arguments, discussion: command.discussion,
        options: command.acceptedOptions)
    }
  }

  /// The program's name, as the shell runs it: `tilt-cli`.
  public var program: String
  /// The program without a command.
  public var root: Entry
  /// The subcommands, in the help's order.
  public var commands: [Entry]

  /// The catalog of `program`: `root` runs without a command.
  public init(program: String, root: any Command.Type, commands: [any Command.Type]) {
    self.program = program
    self.root = Entry(root)
    self.commands = commands.map(Entry.init)
  }

  /// Every subcommand's name, and `help`.
  public var commandNames: [String] { commands.map(\.name) + ["help"] }

  /// The program's name as a shell function's: `_tilt_cli`.
  var functionName: String {
    "_" + String(program.map { $0.isLetter || $0.isNumber ? $0 : "_" })
  }
}

extension OptionDeclaration {
  /// The help as one line, cut after its first sentence or at `limit`
  /// characters: the description a shell shows beside the option.
  func summary(limit: Int = 72) -> String {
    Self.summary(of: help, limit: limit)
  }

  static func summary(of text: String, limit: Int = 72) -> String {
    var line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    if let end = line.range(of: ". ") { line = String(line[..<end.lowerBound]) + "." }
    guard line.count > limit else { return line }
    var cut = String(line.prefix(limit - 1))
    if let space = cut.lastIndex(of: " ") { cut = String(cut[..<space]) }
    return cut + "…"
  }
}
