/// The help's layout: sections, and option rows with their descriptions in
/// one column.
enum HelpText {
  /// Where the descriptions start.
  static let descriptionColumn = 26
  /// The widest a line of the help is, descriptions wrapped to it.
  static let width = 90

  /// The whole help: overview, usage, `sections` (already laid out, like
  /// `ARGUMENTS:`), the options, then `footer`.
  static func render(
    overview: String, usage: String, sections: [String], options: [OptionDeclaration],
    footer: String = ""
  ) -> String {
    var all = ["OVERVIEW: \(overview)", "USAGE: tilt-cli \(usage)"] + sections
    all.append("OPTIONS:\n" + options.map { row($0.label, $0.help) }.joined())
    if !footer.isEmpty { all.append(footer) }
    return all.map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
      .joined(separator: "\n\n") + "\n"
  }

  /// The `ARGUMENTS:` section.
  static func argumentsSection(_ arguments: [ArgumentDeclaration]) -> String {
    "ARGUMENTS:\n" + arguments.map { row($0.name, $0.help) }.joined()
  }

  /// `  LABEL   description…`, the label on a line of its own when it reaches
  /// the descriptions' column; ends in a line break.
  static func row(_ label: String, _ description: String) -> String {
    let indent = String(repeating: " ", count: descriptionColumn)
    let lines = wrapped(description, width: width - descriptionColumn)
    var text = "  " + label
    if text.count < descriptionColumn {
      text += String(repeating: " ", count: descriptionColumn - text.count)
      text += (lines.first ?? "") + "\n"
      for line in lines.dropFirst() { text += indent + line + "\n" }
    } else {
      text += "\n"
      for line in lines { text += indent + line + "\n" }
    }
    return text
  }

  /// The text's lines, each longer one broken at spaces to fit `width`.
  static func wrapped(_ text: String, width: Int) -> [String] {
    var result: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      guard line.count > width else {
        result.append(String(line))
        continue
      }
      var current = ""
      for word in line.split(separator: " ") {
        if !current.isEmpty, current.count + 1 + word.count > width {
          result.append(current)
          current = String(word)
        } else {
          current += (current.isEmpty ? "" : " ") + word
        }
      }
      result.append(current)
    }
    return result
  }
}
