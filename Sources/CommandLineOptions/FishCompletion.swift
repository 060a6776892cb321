import Foundation

/// The fish completions of a program, made from its declarations.
public enum FishCompletion {
  /// The completions for `catalog`; the first line says they are made by the
  /// command line `madeBy`.
  public static func script(_ catalog: CommandCatalog, madeBy: String) -> String {
    let complete = "complete -c \(catalog.program)"
    var lines = [
      "# fish completions for \(catalog.program), made by '\(madeBy)'.",
      "\(complete) -f",
    ]
    for entry in catalog.commands {
      lines.append(
        "\(complete) -n __fish_use_subcommand -a \(entry.name) -d \(quoted(entry.overview))"
      )
    }
    lines.append(
      "\(complete) -n __fish_use_subcommand -a help -d 'Show the help of a command.'")
    for entry in [catalog.root] + catalog.commands {
      let condition =
        entry.name.isEmpty
        ? "__fish_use_subcommand" : quoted("__fish_seen_subcommand_from \(entry.name)")
      for option in entry.options {
        var line = "\(complete) -n \(condition)"
        if let short = option.short { line += " -s \(short)" }
        line += " -l \(option.name)"
        switch (option.kind, option.completion) {
        case (.flag, _): break
        case (_, .file): line += " -r -F"
        case (_, .choices(let words)): line += " -x -a \(quoted(words.joined(separator: " ")))"
        case (_, .none): line += " -x"
        }
        line += " -d \(quoted(option.summary()))"
        lines.append(line)
      }
      if let positional = entry.arguments.first, !entry.name.isEmpty {
        switch positional.completion {
        case .file: lines.append("\(complete) -n \(condition) -F")
        case .choices(let words):
          lines.append(
            "\(complete) -n \(condition) -a \(quoted(words.joined(separator: " ")))")
        case .none: break
        }
      }
    }
    lines.append(
      "\(complete) -n '__fish_seen_subcommand_from help' -a "
        + quoted(catalog.commands.map(\.name).joined(separator: " ")))
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` in single quotes, as fish reads them.
  static func quoted(_ text: String) -> String {
    "'"
      + text.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "'", with: "\\'") + "'"
  }
}
