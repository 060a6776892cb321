import CommandLineOptions

/// `tilt-cli completions SHELL`: the shell completion script, made from the
/// option declarations.
enum CompletionsCommand: Command {
  enum Shell: String, CaseIterable { case bash, zsh, fish }

  static let name = "completions"
  static let overview = "Print the completion script for bash, zsh or fish."
  static let usage = "completions bash|zsh|fish"
  static let arguments = [
    ArgumentDeclaration(
      name: "SHELL",
      help: """
        bash, zsh or fish. Installed where the shell looks (scripts/install
        does): bash's completions/tilt-cli, zsh's site-functions/_tilt-cli,
        fish's vendor_completions.d/tilt-cli.fish.
        """, completion: .choices(Shell.spellings))
  ]
  static let options: [OptionDeclaration] = []

  static func request(from arguments: CommandLineArguments) throws(UsageError) -> Shell {
    guard let name = arguments.positionals.first else {
      throw UsageError("missing SHELL (bash, zsh or fish)")
    }
    guard let shell = Shell(rawValue: name) else {
      throw UsageError("SHELL must be one of bash, zsh, fish, not '\(name)'")
    }
    return shell
  }

  static func run(_ shell: Shell) throws -> Int32 {
    let catalog = CommandList.program.catalog
    let madeBy = "\(catalog.program) \(Self.name) \(shell)"
    switch shell {
    case .bash: print(BashCompletion.script(catalog, madeBy: madeBy), terminator: "")
    case .zsh: print(ZshCompletion.script(catalog, madeBy: madeBy), terminator: "")
    case .fish: print(FishCompletion.script(catalog, madeBy: madeBy), terminator: "")
    }
    return ExitStatus.success
  }
}
