import Foundation
import SystemCalls

/// Every subcommand, in the order the help lists them: a new command is its
/// file and one entry here.
enum CommandList {
  static var all: [any Command.Type] {
    [
      DevicesCommand.self, InfoCommand.self, LiveCommand.self, ReplayCommand.self,
      RecordCommand.self, TuneCommand.self, CalibrateCommand.self, DsuCommand.self,
    ]
  }
}

/// Runs `command` with `arguments`, turning errors into messages and exit statuses.
@MainActor func run(_ command: any Command.Type, _ arguments: [String]) -> Int32 {
  do {
    let parsed = try command.parse(arguments)
    if parsed.has(CommandLineArguments.helpName) {
      print(command.helpText, terminator: "")
      return ExitStatus.success
    }
    return try command.run(parsed)
  } catch let error as UsageError {
    printUsageError(error, for: command)
    return ExitStatus.usage
  } catch {
    StandardError.write("tilt-cli \(command.name): \(LibraryErrorText.describe(error))\n")
    return ExitStatus.failure
  }
}

func printUsageError(_ error: UsageError, for command: (any Command.Type)?) {
  if let command, !command.name.isEmpty {
    StandardError.write(
      "Error: \(error)\nUsage: tilt-cli \(command.usage)\n  See 'tilt-cli \(command.name) --help'.\n"
    )
  } else {
    StandardError.write(
      "Error: \(error)\nUsage: tilt-cli [<command>] [options]\n  See 'tilt-cli --help'.\n")
  }
}

/// The command called `name`, or the usage error that says there is none.
func command(named name: String) throws(UsageError) -> any Command.Type {
  if let command = CommandList.all.first(where: { $0.name == name }) { return command }
  var message = "unknown command '\(name)'"
  if let near = EditDistance.suggestion(for: name, among: CommandList.all.map { $0.name }) {
    message += "; did you mean '\(near)'?"
  }
  throw UsageError(message)
}

/// `tilt-cli help [COMMAND]`: the same text and status as `--help`.
@MainActor func helpCommand(_ arguments: [String]) -> Int32 {
  do throws(UsageError) {
    guard arguments.count <= 1 else {
      throw UsageError("help takes one command, not \(arguments.count)")
    }
    let chosen = try arguments.first.map(command(named:)) ?? DefaultCommand.self
    print(chosen.helpText, terminator: "")
    return ExitStatus.success
  } catch {
    printUsageError(error, for: nil)
    return ExitStatus.usage
  }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
if arguments.first == "help" {
  status = helpCommand(Array(arguments.dropFirst()))
} else if let first = arguments.first, !first.hasPrefix("-") {
  do {
    status = run(try command(named: first), Array(arguments.dropFirst()))
  } catch {
    printUsageError(error, for: nil)
    status = ExitStatus.usage
  }
} else {
  status = run(DefaultCommand.self, arguments)
}
ProcessEnd.exit(status)
