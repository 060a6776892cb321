/// The man page of a program in roff (`man -l`), made from its help.
public enum ManPage {
  /// The page of `catalog` at `version`: NAME, SYNOPSIS, DESCRIPTION (the
  /// root's discussion up to its `COMMANDS:` list), OPTIONS and COMMANDS, then
  /// `closing`, roff lines of the program's own sections (EXIT STATUS, FILES,
  /// SEE ALSO). Its first line says it is made by the command line `madeBy`.
  public static func roff(
    _ catalog: CommandCatalog, version: String, madeBy: String, closing: [String]
  ) -> String {
    let program = escaped(catalog.program, dashes: true)
    var lines = [
      ".\\\" The man page of \(catalog.program), made by '\(madeBy)'.",
      ".TH \(escaped(catalog.program.uppercased(), dashes: true)) 1 \"\" \"\(program) \(escaped(version))\" \"User Commands\"",
      ".nh",
      ".SH NAME",
      "\(program) \\- \(escaped(lowercasedFirst(catalog.root.overview)))",
      ".SH SYNOPSIS",
      ".nf",
    ]
    for entry in [catalog.root] + catalog.commands {
      lines.append("\\fB\(program)\\fR \(escaped(entry.usage, dashes: true))")
    }
    lines.append("\\fB\(program) help\\fR [\\fICOMMAND\\fR]")
    lines += [".fi", ".SH DESCRIPTION"]
    lines += preformatted(
      catalog.root.discussion.components(separatedBy: "\n\nCOMMANDS:")[0])
    lines.append(".SH OPTIONS")
    lines += options(catalog.root.options)
    lines.append(".SH COMMANDS")
    for entry in catalog.commands {
      lines += [".SS", "\(program) \(escaped(entry.usage, dashes: true))"]
      lines.append(escaped(entry.overview))
      if !entry.arguments.isEmpty {
        lines.append(".PP")
        lines.append("\\fBArguments:\\fR")
        for argument in entry.arguments {
          lines += [".TP", "\\fI\(escaped(argument.name))\\fR"] + paragraph(argument.help)
        }
      }
      if !entry.discussion.isEmpty {
        lines.append(".PP")
        lines += preformatted(entry.discussion)
      }
      lines += [".PP", "\\fBOptions:\\fR"] + options(entry.options)
    }
    lines += closing
    return lines.joined(separator: "\n") + "\n"
  }

  /// A `.TP` item for each option.
  private static func options(_ options: [OptionDeclaration]) -> [String] {
    options.flatMap { option -> [String] in
      var tag = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
      tag += "\\fB\(escaped("--" + option.name, dashes: true))\\fR"
      if let value = option.valueName { tag += " \\fI\(escaped(value))\\fR" }
      return [".TP", tag] + paragraph(option.help)
    }
  }

  /// Text to fill: its line breaks were the help's column.
  private static func paragraph(_ text: String) -> [String] {
    [escaped(text.split(whereSeparator: \.isNewline).joined(separator: " "))]
  }

  /// Text laid out as the help lays it out.
  private static func preformatted(_ text: String) -> [String] {
    [".nf"]
      + text.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.isEmpty ? ".sp" : escaped(String($0))
      } + [".fi"]
  }

  /// `text` safe as a roff text line: backslashes, a leading dot or quote,
  /// characters beyond ASCII as `\[uXXXX]`; `dashes` writes `-` as `\-`.
  public static func escaped(_ text: String, dashes: Bool = false) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\e"
      case "-" where dashes: result += "\\-"
      case _ where scalar.value > 0x7F:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += "\\[u\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)]"
      default: result.unicodeScalars.append(scalar)
      }
    }
    if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
    return result
  }

  private static func lowercasedFirst(_ text: String) -> String {
    text.prefix(1).lowercased() + text.dropFirst()
  }
}
