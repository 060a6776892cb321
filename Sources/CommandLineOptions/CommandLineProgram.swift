/// A program of subcommands: picks the command from the first argument,
/// parses the rest against its declarations, and turns what goes wrong into
/// a message on standard error and an exit status.
///
/// `PROGRAM COMMAND [options]` runs a command, `PROGRAM [options]` the root,
/// `PROGRAM help [COMMAND]` and `-h`/`--help` print the help (status 0). A
/// ``UsageError`` prints the message, the usage and where the help is (status
/// 64); any other error prints `describe(error)` (status 1).
public struct CommandLineProgram {
  /// The program's name, as the shell runs it.
  public var name: String
  /// What runs without a command.
  public var root: any Command.Type
  /// The subcommands, in the help's order.
  public var commands: [any Command.Type]
  /// An error's message, without the program's name.
  public var describe: (any Error) -> String
  /// Writes a message to standard error.
  public var writeError: (String) -> Void

  /// A program called `name`.
  public init(
    name: String, root: any Command.Type, commands: [any Command.Type],
    describe: @escaping (any Error) -> String, writeError: @escaping (String) -> Void
  ) {
    self.name = name
    self.root = root
    self.commands = commands
    self.describe = describe
    self.writeError = writeError
  }

  /// The declarations of every command, for the completions and the man page.
  public var catalog: CommandCatalog {
    CommandCatalog(program: name, root: root, commands: commands)
  }

  /// Runs the command that `arguments` (without the program's name) pick;
  /// returns the exit status.
  public func run(_ arguments: [String]) -> Int32 {
    if arguments.first == "help" { return help(Array(arguments.dropFirst())) }
    guard let first = arguments.first, !first.hasPrefix("-") else {
      return run(root, arguments)
    }
    do {
      return run(try command(named: first), Array(arguments.dropFirst()))
    } catch {
      printUsageError(error, for: nil)
      return ExitStatus.usage
    }
  }

  /// Runs `command` with `arguments`, turning errors into messages and exit statuses.
  private func run(_ command: any Command.Type, _ arguments: [String]) -> Int32 {
    do {
      let parsed = try command.parse(arguments)
      if parsed[StandardOptions.help] {
        print(command.helpText(program: name), terminator: "")
        return ExitStatus.success
      }
      return try command.run(arguments: parsed)
    } catch let error as UsageError {
      printUsageError(error, for: command)
      return ExitStatus.usage
    } catch {
      let who = command.name.isEmpty ? name : "\(name) \(command.name)"
      writeError("\(who): \(describe(error))\n")
      return ExitStatus.failure
    }
  }

  private func printUsageError(_ error: UsageError, for command: (any Command.Type)?) {
    if let command, !command.name.isEmpty {
      writeError(
        "Error: \(error)\nUsage: \(name) \(command.usage)\n  See '\(name) \(command.name) --help'.\n"
      )
    } else {
      writeError("Error: \(error)\nUsage: \(name) \(root.usage)\n  See '\(name) --help'.\n")
    }
  }

  /// The command called `name`, or the usage error that says there is none.
  public func command(named name: String) throws(UsageError) -> any Command.Type {
    if let command = commands.first(where: { $0.name == name }) { return command }
    var message = "unknown command '\(name)'"
    if let near = EditDistance.suggestion(for: name, among: commands.map { $0.name }) {
      message += "; did you mean '\(near)'?"
    }
    throw UsageError(message)
  }

  /// `PROGRAM help [COMMAND]`: the same text and status as `--help`.
  private func help(_ arguments: [String]) -> Int32 {
    do throws(UsageError) {
      guard arguments.count <= 1 else {
        throw UsageError("help takes one command, not \(arguments.count)")
      }
      let chosen = try arguments.first.map(command(named:)) ?? root
      print(chosen.helpText(program: name), terminator: "")
      return ExitStatus.success
    } catch {
      printUsageError(error, for: nil)
      return ExitStatus.usage
    }
  }
}
