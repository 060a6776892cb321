import CommandLineOptions

/// `tilt-cli manpage`: the man page in roff, made from the help.
enum ManPageCommand: Command {
  static let name = "manpage"
  static let overview = "Print the man page (roff), for man -l or man1/tilt-cli.1."
  static let usage = "manpage"
  static let options: [OptionDeclaration] = []

  /// The page's sections after its commands.
  static let closing = [
    ".SH EXIT STATUS",
    "0 on success, 64 for a usage error (the message, the usage and where the help is, on",
    "standard error), 1 for any other failure, with a message that names the file and",
    "line, or the device and the fix.",
    ".SH FILES",
    ".TP",
    "\\fI$XDG_STATE_HOME/tilt\\fR (else \\fI~/.local/state/tilt\\fR)",
    "The gyroscope bias of each device, stored by \\fBtilt\\-cli calibrate\\fR.",
    ".SH SEE ALSO",
    "\\fBevemu\\-record\\fR(1), \\fBevemu\\-play\\fR(1), \\fBudev\\fR(7)",
  ]

  static func request(from arguments: CommandLineArguments) {}

  static func run(_: Void) throws -> Int32 {
    let catalog = CommandList.program.catalog
    print(
      ManPage.roff(
        catalog, version: Version.string, madeBy: "\(catalog.program) \(name)", closing: closing),
      terminator: "")
    return ExitStatus.success
  }
}
