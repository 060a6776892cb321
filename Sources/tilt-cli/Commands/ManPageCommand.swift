/// `tilt-cli manpage`: the man page in roff, made from the help.
enum ManPageCommand: Command {
  static let name = "manpage"
  static let overview = "Print the man page (roff), for man -l or man1/tilt-cli.1."
  static let usage = "manpage"
  static let options: [OptionDeclaration] = []

  static func run(_ arguments: CommandLineArguments) throws -> Int32 {
    let catalog = CommandCatalog(root: DefaultCommand.self, commands: CommandList.all)
    print(ManPage.roff(catalog, version: Version.string), terminator: "")
    return ExitStatus.success
  }
}
