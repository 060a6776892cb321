import CommandLineOptions
import Foundation
import TestTools
import Testing

@testable import tilt_cli

/// The completions and the man page are made from the same declarations as
/// the parser: every option of every command is in each of them.
@Suite struct CompletionAndManPageTests {
  static var catalog: CommandCatalog { CommandList.program.catalog }

  @Test func everyOptionIsInEachCompletion() {
    let catalog = Self.catalog
    let bash = BashCompletion.script(catalog, madeBy: "tilt-cli completions bash")
    let zsh = ZshCompletion.script(catalog, madeBy: "tilt-cli completions zsh")
    let fish = FishCompletion.script(catalog, madeBy: "tilt-cli completions fish")
    /// The script's words: runs of letters, digits and dashes.
    func words(_ script: String) -> Set<Substring> {
      Set(script.split { !($0.isLetter || $0.isNumber || $0 == "-") })
    }
    let (bashWords, zshWords) = (words(bash), words(zsh))
    for entry in [catalog.root] + catalog.commands {
      for option in entry.options {
        let who = "\(entry.name) --\(option.name)"
        #expect(bashWords.contains("--\(option.name)"), "bash: \(who)")
        #expect(zshWords.contains("--\(option.name)"), "zsh: \(who)")
        #expect(fish.contains(" -l \(option.name) "), "fish: \(who)")
        if case .choices(let words) = option.completion {
          #expect(bash.contains("'\(words.joined(separator: " "))'"), "bash choices: \(who)")
          #expect(zsh.contains("(\(words.joined(separator: " ")))"), "zsh choices: \(who)")
          #expect(fish.contains("-a '\(words.joined(separator: " "))'"), "fish choices: \(who)")
        }
      }
      if !entry.name.isEmpty {
        #expect(bash.contains("    \(entry.name))\n"), "bash: \(entry.name)")
        #expect(zsh.contains("    \(entry.name))\n"), "zsh: \(entry.name)")
        #expect(fish.contains("-a \(entry.name) "), "fish: \(entry.name)")
      }
    }
  }

  @Test func bashCompletesCommandsOptionsAndChoices() throws {
    let script = BashCompletion.script(Self.catalog, madeBy: "tilt-cli completions bash")
    func complete(_ words: [String]) throws -> String {
      let quoted = words.map { "'\($0)'" }.joined(separator: " ")
      let program = """
        \(script)
        COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMPREPLY=()
        _tilt_cli; echo "${COMPREPLY[*]}"
        """
      let r = try TiltCLI.runTool("/bin/bash", ["-c", program])
      #expect(r.stderr.isEmpty, "\(r.stderr)")
      return r.stdout.trimmingCharacters(in: .newlines)
    }
    #expect(try complete(["tilt-cli", "re"]) == "replay record")
    #expect(try complete(["tilt-cli", "replay", "--form"]) == "--format")
    #expect(try complete(["tilt-cli", "replay", "--format", ""]) == "jsonl tty html")
    #expect(try complete(["tilt-cli", "--vers"]) == "--version")
    #expect(try complete(["tilt-cli", "tune", "--search", "o"]) == "oneeuro")
    #expect(try complete(["tilt-cli", "completions", "z"]) == "zsh")
    #expect(try complete(["tilt-cli", "help", "cal"]) == "calibrate")
    #expect(try complete(["tilt-cli", "live", "--rate", ""]) == "")
  }

  @Test func theManPageHasEveryCommandAndOption() {
    let page = ManPage.roff(
      Self.catalog, version: "1.2.3", madeBy: "tilt-cli manpage", closing: ManPageCommand.closing)
    #expect(page.hasPrefix(".\\\" "))
    #expect(page.contains(".TH TILT\\-CLI 1 \"\" \"tilt\\-cli 1.2.3\" \"User Commands\"\n"))
    for entry in Self.catalog.commands {
      #expect(page.contains(".SS\ntilt\\-cli \(ManPage.escaped(entry.usage, dashes: true))\n"))
      for option in entry.options {
        #expect(page.contains("\\fB\\-\\-\(ManPage.escaped(option.name, dashes: true))\\fR"))
      }
    }
    // Plain ASCII: characters beyond it are escapes, so groff needs no preconv.
    #expect(page.unicodeScalars.allSatisfy { $0.isASCII }, "non-ASCII in the page")
    // No text line that roff would read as a request.
    for line in page.split(separator: "\n") where line.hasPrefix("'") {
      Issue.record("a line roff reads as a request: \(line)")
    }
  }

  @Test func theCommandsPrintWhatTheGeneratorsMake() throws {
    for shell in ["bash", "zsh", "fish"] {
      let r = try TiltCLI.run(["completions", shell])
      #expect(r.status == 0 && r.stderr.isEmpty, "\(shell): \(r.stderr)")
      #expect(
        r.stdout.split(separator: "\n").prefix(2).contains {
          $0.hasSuffix("made by 'tilt-cli completions \(shell)'.")
        }, "\(shell): \(r.stdout.prefix(120))")
    }
    let bad = try TiltCLI.run(["completions", "tcsh"])
    #expect(bad.status == 64)
    #expect(bad.stderr.hasPrefix("Error: SHELL must be one of bash, zsh, fish, not 'tcsh'\n"))
    let page = try TiltCLI.run(["manpage"])
    #expect(page.status == 0)
    #expect(page.stdout.contains(".SH OPTIONS\n"))
    #expect(page.stdout.hasPrefix(".\\\" The man page of tilt-cli, made by 'tilt-cli manpage'.\n"))
    #expect(page.stdout.contains(".SH FILES\n"))
  }
}
