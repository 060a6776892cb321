import Foundation
import SystemCalls
import TiltCard

/// Standard error, unbuffered: one message a call.
enum StandardError {
  /// Writes a message. Messages carry text from devices and files (a device's
  /// name, a recording's line in an error), so every control character in
  /// it but the line ends is shown as an escape (`\e`, `\x07`:
  /// ``TerminalText/escaped(_:)``, contract §3.10): a name cannot retitle the
  /// terminal or write its clipboard.
  static func write(_ text: String) {
    writeControl(escaped(text))
  }

  /// Writes `text` as it is: only for the terminal control a progress line
  /// draws itself with (`\r`, `ESC [K`), never with text from a device or a
  /// file in it unescaped.
  static func writeControl(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// True when standard error is a terminal (a progress line draws only there).
  static var isTerminal: Bool { TerminalMode.isTerminal(StandardDescriptor.error) }

  /// `text` with its control characters escaped, line by line.
  static func escaped(_ text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard !lines.allSatisfy({ TerminalText.isSafe($0) }) else { return text }
    return lines.map { TerminalText.escaped($0) }.joined(separator: "\n")
  }
}

/// Standard output through the C library's buffer.
enum StandardOutput {
  /// True when standard output is a terminal.
  static var isTerminal: Bool { TerminalMode.isTerminal(StandardDescriptor.output) }
}
