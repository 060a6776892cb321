import CommandLineOptions

/// A small program of another name than tilt-cli, to see that nothing in the
/// library names the tool it was written for.
enum Fixture {
  enum Color: String, CaseIterable { case red, green }

  enum Root: Command {
    static let name = ""
    static let overview = "Paint things."
    static let usage = "[<command>] [options]"
    static let discussion = "Paints.\n\nCOMMANDS:\n  paint   Paint a file."
    enum Keys {
      static let version = Flag("version", help: "Show the version.")
    }
    static let options = [Keys.version.declaration]
    static func request(from arguments: CommandLineArguments) -> Bool { arguments[Keys.version] }
    static func run(_ version: Bool) throws -> Int32 { 0 }
  }

  enum Paint: Command {
    static let name = "paint"
    static let overview = "Paint a file."
    static let usage = "paint [options] FILE"
    static let arguments = [ArgumentDeclaration(name: "FILE", help: "The file to paint.")]
    enum Keys {
      static let color = Option<Color>.choice("color", short: "c", help: "The color.")
      static let coats = Option<Double>.number(
        "coats", "N", help: "How many coats, 1 to 3.", in: 1...3)
      static let layer = RepeatableOption("layer", "PATH", help: "A layer; again for more.")
    }
    static let options = [Keys.color.declaration, Keys.coats.declaration, Keys.layer.declaration]
    static func request(from arguments: CommandLineArguments) -> String? {
      arguments.positionals.first
    }
    /// Fails with a plain error when the file is `missing`, else exits 3.
    static func run(_ file: String?) throws -> Int32 {
      if file == "missing" { throw Missing() }
      return 3
    }
  }

  struct Missing: Error {}

  /// What the program wrote to standard error.
  final class Written {
    var text = ""
  }

  static func program(_ written: Written) -> CommandLineProgram {
    CommandLineProgram(
      name: "paint-tool", root: Root.self, commands: [Paint.self],
      describe: { _ in "the file is missing" }, writeError: { written.text += $0 })
  }
}
