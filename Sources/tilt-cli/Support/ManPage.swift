/// The man page of `tilt-cli` in roff (`man -l`), made from the help.
enum ManPage {
  static func roff(_ catalog: CommandCatalog, version: String) -> String {
    var lines = [
      ".\\\" The man page of tilt-cli, made by 'tilt-cli manpage'.",
      ".TH TILT\\-CLI 1 \"\" \"tilt\\-cli \(escaped(version))\" \"User Commands\"",
      ".nh",
      ".SH NAME",
      "tilt\\-cli \\- \(escaped(lowercasedFirst(catalog.root.overview)))",
      ".SH SYNOPSIS",
      ".nf",
    ]
    for entry in [catalog.root] + catalog.commands {
      lines.append("\\fBtilt\\-cli\\fR \(escaped(entry.usage, dashes: true))")
    }
    lines.append("\\fBtilt\\-cli help\\fR [\\fICOMMAND\\fR]")
    lines += [".fi", ".SH DESCRIPTION"]
    lines += preformatted(
      catalog.root.discussion.components(separatedBy: "\n\nCOMMANDS:")[0])
    lines.append(".SH OPTIONS")
    lines += options(catalog.root.options)
    lines.append(".SH COMMANDS")
    for entry in catalog.commands {
      lines += [".SS", "tilt\\-cli \(escaped(entry.usage, dashes: true))"]
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
    lines += [
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
  static func escaped(_ text: String, dashes: Bool = false) -> String {
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
