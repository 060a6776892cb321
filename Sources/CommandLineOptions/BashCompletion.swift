/// The bash completion script of a program, made from its declarations.
public enum BashCompletion {
  /// The script for `catalog`; its first line says it is made by the command
  /// line `madeBy`.
  public static func script(_ catalog: CommandCatalog, madeBy: String) -> String {
    let function = catalog.functionName
    var text = """
      # bash completion for \(catalog.program), made by '\(madeBy)'.
      \(function)() {
        local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
        local command=""
        if ((COMP_CWORD > 1)) && [[ ${COMP_WORDS[1]} != -* ]]; then
          command=${COMP_WORDS[1]}
        fi
        if ((COMP_CWORD == 1)) && [[ $cur != -* ]]; then
          COMPREPLY=($(compgen -W '\(catalog.commandNames.joined(separator: " "))' -- "$cur"))
          return
        fi
        case $command in

      """
    for entry in [catalog.root] + catalog.commands {
      text += "    \(entry.name.isEmpty ? "\"\"" : entry.name))\n"
      text += caseBody(entry, indent: "      ")
      text += "      ;;\n"
    }
    text += """
          help)
            COMPREPLY=($(compgen -W '\(catalog.commands.map(\.name).joined(separator: " "))' -- "$cur"))
            return
            ;;
        esac
      }
      complete -F \(function) \(catalog.program)

      """
    return text
  }

  /// What completes after `prev`, then the options or the positionals.
  private static func caseBody(_ entry: CommandCatalog.Entry, indent: String) -> String {
    var text = "\(indent)case $prev in\n"
    let valued = entry.options.filter { $0.kind != .flag }
    for option in valued {
      let spellings = ["--\(option.name)"] + (option.short.map { ["-\($0)"] } ?? [])
      text += "\(indent)  \(spellings.joined(separator: "|")))\n"
      switch option.completion {
      case .file:
        text += "\(indent)    compopt -o filenames 2>/dev/null\n"
        text += "\(indent)    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
      case .choices(let words):
        text +=
          "\(indent)    COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- \"$cur\"))\n"
      case .none:
        text += "\(indent)    COMPREPLY=()\n"
      }
      text += "\(indent)    return\n\(indent)    ;;\n"
    }
    text += "\(indent)esac\n"
    var spellings: [String] = []
    for option in entry.options {
      spellings.append("--\(option.name)")
      if let short = option.short { spellings.append("-\(short)") }
    }
    text += "\(indent)if [[ $cur == -* ]]; then\n"
    text +=
      "\(indent)  COMPREPLY=($(compgen -W '\(spellings.joined(separator: " "))' -- \"$cur\"))\n"
    if let positional = entry.arguments.first, positional.completion != .none {
      text += "\(indent)else\n"
      switch positional.completion {
      case .file, .none:
        text += "\(indent)  compopt -o filenames 2>/dev/null\n"
        text += "\(indent)  COMPREPLY=($(compgen -f -- \"$cur\"))\n"
      case .choices(let words):
        text +=
          "\(indent)  COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- \"$cur\"))\n"
      }
    }
    text += "\(indent)fi\n"
    return text
  }
}
