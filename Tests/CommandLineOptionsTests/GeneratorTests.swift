import CommandLineOptions
import Testing

/// The help, the completions and the man page, made from the declarations
/// under the program's own name.
@Suite struct GeneratorTests {
  static let catalog = Fixture.program(Fixture.Written()).catalog

  @Test func helpLinesWrapAtTheWidthAndKeepTheirBreaks() {
    let row = HelpText.row("--x N", "one\n" + String(repeating: "word ", count: 30))
    let lines = row.split(separator: "\n")
    #expect(lines[0] == "  --x N                   one")
    #expect(lines.count > 2)
    #expect(lines.allSatisfy { $0.count <= HelpText.width })
  }

  @Test func theHelpListsArgumentsAndEveryOption() {
    let help = Fixture.Paint.helpText(program: "paint-tool")
    #expect(help.hasPrefix("OVERVIEW: Paint a file.\n\nUSAGE: paint-tool paint [options] FILE\n"))
    #expect(help.contains("ARGUMENTS:\n  FILE                    The file to paint.\n"))
    #expect(help.contains("  -c, --color red|green   The color.\n"))
    #expect(help.hasSuffix("  -h, --help              Show help information.\n"))
  }

  /// A repeatable option may be given again; a single one is offered once.
  @Test func zshMarksRepeatableOptions() {
    let zsh = ZshCompletion.script(Self.catalog, madeBy: "paint-tool completions zsh")
    #expect(zsh.contains("'*--layer[A layer; again for more.]:PATH:_files'"), "\(zsh)")
    #expect(
      zsh.contains("'(-c --color)'{-c,--color}'[The color.]:red|green:(red green)'"), "\(zsh)")
  }

  @Test func everyScriptNamesTheProgram() {
    let scripts = [
      BashCompletion.script(Self.catalog, madeBy: "paint-tool completions bash"),
      ZshCompletion.script(Self.catalog, madeBy: "paint-tool completions zsh"),
      FishCompletion.script(Self.catalog, madeBy: "paint-tool completions fish"),
      ManPage.roff(Self.catalog, version: "1", madeBy: "paint-tool manpage", closing: []),
    ]
    for script in scripts {
      #expect(!script.contains("tilt"), "\(script)")
    }
    #expect(scripts[0].contains("complete -F _paint_tool paint-tool\n"))
    #expect(scripts[1].hasPrefix("#compdef paint-tool\n"))
    #expect(
      scripts[2].contains(
        "complete -c paint-tool -n '__fish_seen_subcommand_from paint' -l coats -x"))
    #expect(scripts[3].contains(".TH PAINT\\-TOOL 1 \"\" \"paint\\-tool 1\" \"User Commands\"\n"))
  }

  @Test func theManPageEndsWithTheProgramsOwnSections() {
    let page = ManPage.roff(
      Self.catalog, version: "1", madeBy: "paint-tool manpage", closing: [".SH FILES", "none"])
    let end = [
      ".SS", "paint\\-tool paint [options] FILE", "Paint a file.", ".PP", "\\fBArguments:\\fR",
      ".TP", "\\fIFILE\\fR", "The file to paint.", ".PP", "\\fBOptions:\\fR",
      ".TP", "\\fB\\-c\\fR, \\fB\\-\\-color\\fR \\fIred|green\\fR", "The color.",
      ".TP", "\\fB\\-\\-coats\\fR \\fIN\\fR", "How many coats, 1 to 3.",
      ".TP", "\\fB\\-\\-layer\\fR \\fIPATH\\fR", "A layer; again for more.",
      ".TP", "\\fB\\-h\\fR, \\fB\\-\\-help\\fR", "Show help information.",
      ".SH FILES", "none",
    ]
    #expect(page.hasSuffix(end.joined(separator: "\n") + "\n"), "\(page)")
  }

  @Test(arguments: [
    ("a\\b", "a\\eb"), (".start", "\\&.start"), ("'quote", "\\&'quote"), ("45°", "45\\[u00B0]"),
    ("…", "\\[u2026]"),
  ])
  func roffEscapes(text: String, escaped: String) {
    #expect(ManPage.escaped(text) == escaped)
  }
}
