import Glibc

/// The standard descriptors.
public enum StandardDescriptor {
  /// The corresponding C constant is `STDIN_FILENO`.
  public static let input: Int32 = STDIN_FILENO
  /// The corresponding C constant is `STDOUT_FILENO`.
  public static let output: Int32 = STDOUT_FILENO
  /// The corresponding C constant is `STDERR_FILENO`.
  public static let error: Int32 = STDERR_FILENO
}

/// A terminal's settings (`struct termios`), read with ``Terminal/settings(of:)``.
package struct TerminalSettings: Sendable {
  package var raw: termios

  package init() { raw = termios() }

  /// Raw input (`cfmakeraw`: keys one byte at a time, no echo) that still
  /// raises SIGINT on Ctrl-C (`ISIG`) and still turns "\n" into "\r\n" on
  /// output (`OPOST | ONLCR`).
  package func rawInputKeepingSignals() -> TerminalSettings {
    var settings = self
    cfmakeraw(&settings.raw)
    settings.raw.c_lflag |= tcflag_t(ISIG)
    settings.raw.c_oflag |= tcflag_t(OPOST | ONLCR)
    return settings
  }
}

/// Terminal calls: `isatty`, `TIOCGWINSZ`, `tcgetattr`/`tcsetattr`.
package enum Terminal {
  /// Whether `fd` is a terminal (`isatty`).
  package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

  /// The size of the terminal on `fd` in cells (`TIOCGWINSZ`); `nil` when it
  /// isn't one or reports no size.
  package static func size(of fd: Int32) -> (columns: Int, rows: Int)? {
    var size = winsize()
    let result = try? Syscall.checked("ioctl", badDescriptor: .isError) {
      ioctl(fd, UInt(TIOCGWINSZ), &size)
    }
    guard result != nil, size.ws_col > 0, size.ws_row > 0 else { return nil }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// The settings of the terminal on `fd` (`tcgetattr`).
  package static func settings(of fd: Int32) throws(Errno) -> TerminalSettings {
    var settings = TerminalSettings()
    try Syscall.checked("tcgetattr", badDescriptor: .isError) { tcgetattr(fd, &settings.raw) }
    return settings
  }

  /// Applies `settings` to the terminal on `fd` once its pending output is
  /// written, dropping unread input (`tcsetattr(TCSAFLUSH)`).
  package static func apply(_ settings: TerminalSettings, to fd: Int32) throws(Errno) {
    var raw = settings.raw
    try Syscall.checked("tcsetattr", badDescriptor: .isError) { tcsetattr(fd, TCSAFLUSH, &raw) }
  }
}
