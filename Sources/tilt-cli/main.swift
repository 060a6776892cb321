import Foundation
import SystemCalls

/// Every subcommand, in the order the help lists them.
let commands: [any Command.Type] = [
  DevicesCommand.self, InfoCommand.self, LiveCommand.self, ReplayCommand.self,
  RecordCommand.self, TuneCommand.self, CalibrateCommand.self,
]

let topLevelHelp = """
  OVERVIEW: Tilt a two-sided card with a Linux motion sensor, Core Motion style.

  USAGE: tilt-cli [<command>] [options]

  With no command: live tilt from the first motion device found, or the bundled
  demo recording when there is none.

  COMMANDS:
  \(commands.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.overview }.joined(separator: "\n"))

  OPTIONS:
    -h, --help              Show help information.
    --version               Show the version.

  See 'tilt-cli <command> --help' (or 'tilt-cli help <command>') for a command's options.

  """

/// Runs `command` with `arguments`, turning errors into messages and exit statuses.
@MainActor func run(_ command: any Command.Type, _ arguments: [String]) -> Int32 {
  if arguments.contains("-h") || arguments.contains("--help") {
    print(command.helpText, terminator: "")
    return ExitStatus.success
  }
  do {
    let parsed = try CommandLineArguments(arguments, spec: command.spec)
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

/// `tilt-cli help [COMMAND]`: the same text and status as `--help`.
@MainActor func help(_ arguments: [String]) -> Int32 {
  guard let name = arguments.first else {
    print(topLevelHelp, terminator: "")
    return ExitStatus.success
  }
  guard arguments.count == 1, let command = commands.first(where: { $0.name == name }) else {
    var message =
      arguments.count == 1
      ? "unknown command '\(name)'" : "help takes one command, not \(arguments.count)"
    if arguments.count == 1,
      let near = EditDistance.suggestion(for: name, among: commands.map { $0.name })
    {
      message += "; did you mean '\(near)'?"
    }
    printUsageError(UsageError(message), for: nil)
    return ExitStatus.usage
  }
  print(command.helpText, terminator: "")
  return ExitStatus.success
}

var arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
if arguments.first == "help" {
  status = help(Array(arguments.dropFirst()))
} else if let first = arguments.first, !first.hasPrefix("-") {
  if let command = commands.first(where: { $0.name == first }) {
    status = run(command, Array(arguments.dropFirst()))
  } else {
    var message = "unknown command '\(first)'"
    if let near = EditDistance.suggestion(for: first, among: commands.map { $0.name }) {
      message += "; did you mean '\(near)'?"
    }
    printUsageError(UsageError(message), for: nil)
    status = ExitStatus.usage
  }
} else if arguments == ["-h"] || arguments == ["--help"] {
  print(topLevelHelp, terminator: "")
  status = ExitStatus.success
} else if arguments == ["--version"] {
  print("tilt-cli \(Version.string)")
  status = ExitStatus.success
} else {
  status = run(DefaultCommand.self, arguments)
}
ProcessEnd.exit(status)
