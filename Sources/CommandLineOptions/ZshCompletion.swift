import Foundation

/// The zsh completion function of a program, made from its declarations.
public enum ZshCompletion {
  /// The function for `catalog`; its second line says it is made by the
  /// command line `madeBy`.
  public static func script(_ catalog: CommandCatalog, madeBy: String) -> String {
    let function = catalog.functionName
    let commands =
      catalog.commands.map { "    \(quoted("\($0.name):\($0.overview)"))" }
      + ["    'help:Show the help of a command.'"]
    var text = """
      #compdef \(catalog.program)
      # zsh completion for \(catalog.program), made by '\(madeBy)'.

      \(function)() {
        local -a commands
        commands=(
      \(commands.joined(separator: "\n"))
        )
        if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then
          _describe -t commands '\(catalog.program) command' commands
          return
        fi
        local command=
        if [[ $words[2] != -* ]]; then
          command=$words[2]
          shift words
          (( CURRENT-- ))
        fi
        case $command in

      """
    for entry in [catalog.root] + catalog.commands {
      text += "    \(entry.name.isEmpty ? "''" : entry.name))\n"
      text += "      _arguments -s \\\n"
      var specs = entry.options.map(spec)
      for (index, argument) in entry.arguments.enumerated() {
        specs.append(quoted("\(index + 1):\(argument.name):\(action(argument.completion))"))
      }
      text += specs.map { "        \($0)" }.joined(separator: " \\\n") + "\n"
      text += "      ;;\n"
    }
    text += """
          help)
            _arguments '1:command:(\(catalog.commands.map(\.name).joined(separator: " ")))'
            ;;
        esac
      }

      \(function) "$@"

      """
    return text
  }

  /// One `_arguments` spec: `'(-o --output)'{-o,--output}'[Write…]:FILE:_files'`.
  private static func spec(_ option: OptionDeclaration) -> String {
    var rest = "[\(bracketed(option.summary()))]"
    if option.kind != .flag {
      rest += ":\(option.valueName ?? "value"):\(action(option.completion))"
    }
    let long = "--\(option.name)"
    let many = option.kind == .repeatable ? "*" : ""
    guard let short = option.short else { return quoted(many + long + rest) }
    let exclusion = option.kind == .repeatable ? "" : quoted("(-\(short) \(long))")
    return "\(exclusion)\(many.isEmpty ? "" : quoted(many)){-\(short),\(long)}\(quoted(rest))"
  }

  private static func action(_ completion: OptionDeclaration.Completion) -> String {
    switch completion {
    case .none: return " "
    case .file: return "_files"
    case .choices(let words): return "(\(words.joined(separator: " ")))"
    }
  }

  /// Text for inside `[…]` of a spec: brackets and colons escaped.
  private static func bracketed(_ text: String) -> String {
    var result = ""
    for character in text {
      if "[]:\\".contains(character) { result.append("\\") }
      result.append(character)
    }
    return result
  }

  /// `text` in single quotes for the shell.
  static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
