import CommandLineOptions
import SystemCalls

/// Every subcommand, in the order the help lists them: a new command is its
/// file and one entry here.
enum CommandList {
  static var all: [any Command.Type] {
    [
      DevicesCommand.self, InfoCommand.self, LiveCommand.self, ReplayCommand.self,
      RecordCommand.self, TuneCommand.self, CalibrateCommand.self, DsuCommand.self,
      ServiceCommand.self,
      CompletionsCommand.self, ManPageCommand.self,
    ]
  }

  /// `tilt-cli`: its commands, the library's errors in its words, and
  /// standard error with control characters escaped.
  static var program: CommandLineProgram {
    CommandLineProgram(
      name: "tilt-cli", root: DefaultCommand.self, commands: all,
      describe: { LibraryErrorText.describe($0) }, writeError: { StandardError.write($0) })
  }
}

extension Command {
  /// The help as `tilt-cli <command> --help` prints it.
  static var helpText: String { helpText(program: CommandList.program.name) }
}

ProcessEnd.exit(CommandList.program.run(Array(CommandLine.arguments.dropFirst())))
