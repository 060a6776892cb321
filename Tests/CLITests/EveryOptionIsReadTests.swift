import CommandLineOptions
import Testing

@testable import tilt_cli

/// Every option a command declares is read by it, through its key: a command
/// reads its options in `request(from:)` (its run sees only what that returned),
/// and the arguments record which declared options were read.
@Suite struct EveryOptionIsReadTests {
  static var commands: [any Command.Type] { OptionDeclarationTests.commands }

  /// A positional argument for a command that takes one, so that its request
  /// gets past "missing FILE" (nothing is opened while reading the request).
  static func positionals(_ command: any Command.Type) -> [String] {
    command.arguments.isEmpty ? [] : ["x"]
  }

  /// Given alone, each option is read by the command's request, whether the
  /// request then succeeds or refuses it (a usage error, an unreadable file).
  @Test(arguments: commands.indices)
  func eachOptionGivenIsRead(index: Int) throws {
    let command = Self.commands[index]
    for option in command.options {
      var arguments = ["--\(option.name)"]
      if option.kind != .flag {
        arguments.append(
          try #require(
            OptionDeclarationTests.example(for: option),
            "\(command.name) --\(option.name): add a value it accepts to `candidates`"))
      }
      let parsed = try command.parse(arguments + Self.positionals(command))
      _ = try? command.request(from: parsed)
      #expect(
        !parsed.unread.contains { $0.name == option.name },
        "'\(command.name)' declares --\(option.name) but its request does not read it")
    }
  }

  /// With no option given, the request reads every option it declares.
  @Test(arguments: commands.indices)
  func withNoOptionsEveryDeclaredOptionIsRead(index: Int) throws {
    let command = Self.commands[index]
    let parsed = try command.parse(Self.positionals(command))
    _ = try? command.request(from: parsed)
    #expect(
      parsed.unread.isEmpty,
      "'\(command.name)' does not read \(parsed.unread.map { "--\($0.name)" })")
  }

  /// The check can fail: an option that no request reads shows as unread.
  @Test func anOptionNoOneReadsShowsAsUnread() throws {
    let stray = Flag("stray", help: "Read by no command.")
    let parsed = try CommandLineArguments(
      ["--stray"], options: DevicesCommand.options + [stray.declaration], maxPositionals: 0)
    _ = DevicesCommand.request(from: parsed)
    #expect(parsed.unread.map(\.name) == ["stray"])
  }
}
