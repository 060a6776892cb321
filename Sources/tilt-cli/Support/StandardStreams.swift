import Foundation
import TiltCard

/// Standard error, unbuffered: one message a call.
enum StandardError {
  /// Writes a message. Messages carry text from devices and files (a device's
  /// name, a recording's line in an error), so every control character in
  /// it but the line ends is shown as an escape (`\e`, `\x07`:
  /// ``TerminalText/escaped(_:)``, SPEC §3): a name cannot retitle the
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

  /// `text` with its control characters escaped, line by line.
  static func escaped(_ text: String) -> String {
    guard !TerminalText.isSafe(text.replacingOccurrences(of: "\n", with: "")) else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { TerminalText.escaped($0) }.joined(separator: "\n")
  }
}

/// Standard output through the C library's buffer.
enum StandardOutput {
  /// `fflush(NULL)`: every output stream, standard output's buffer among them
  /// (the C global `stdout` is mutable state Swift 6 does not let us read).
  static func flush() { fflush(nil) }

  /// True when standard output is a terminal.
  static var isTerminal: Bool { TerminalMode.isTerminal(STDOUT_FILENO) }
}
