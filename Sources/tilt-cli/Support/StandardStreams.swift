import Foundation

/// Standard error, unbuffered: one message a call.
enum StandardError {
  static func write(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}

/// Standard output through the C library's buffer.
enum StandardOutput {
  static func flush() { fflush(stdout) }

  /// True when standard output is a terminal.
  static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
