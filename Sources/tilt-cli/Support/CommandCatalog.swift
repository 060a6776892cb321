/// What the completions and the man page are made from: every command's
/// declarations, plain `tilt-cli` first.
struct CommandCatalog {
  /// One command as the generators see it.
  struct Entry {
    /// `""` for plain `tilt-cli`.
    var name: String
    var overview: String
    var usage: String
    var arguments: [ArgumentDeclaration]
    var discussion: String
    var options: [OptionDeclaration]
  }

  /// Plain `tilt-cli`.
  var root: Entry
  /// The subcommands, in the help's order.
  var commands: [Entry]

  init(root: any Command.Type, commands: [any Command.Type]) {
    func entry(_ command: any Command.Type) -> Entry {
      Entry(
        name: command.name, overview: command.overview, usage: command.usage,
        arguments: command.arguments, discussion: command.discussion,
        options: command.acceptedOptions)
    }
    self.root = entry(root)
    self.commands = commands.map(entry)
  }

  /// Every subcommand's name, and `help`.
  var commandNames: [String] { commands.map(\.name) + ["help"] }
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
