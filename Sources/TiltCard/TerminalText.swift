import SystemCalls

/// Text from a device or a file made safe to print to a terminal.
///
/// A device name is chosen by whoever made the device (any user with
/// `/dev/uinput`), and a recording's `N:` line by whoever wrote the file: either
/// may carry escape sequences that retitle the terminal, move the cursor or write
/// the clipboard (OSC 52). Every control character (C0, DEL, C1) and every
/// bidirectional override is shown as a visible escape instead: `\e`, `\n`,
/// `\x07`, `\u{202E}`. Printable text, tabs included, is left as it is.
public enum TerminalText {
  /// `text` with its control characters shown as escapes.
  public static func escaped(_ text: some StringProtocol) -> String {
    TerminalEscapes.escaped(text)
  }

  /// Whether `text` prints as it is.
  public static func isSafe(_ text: some StringProtocol) -> Bool {
    TerminalEscapes.isSafe(text)
  }
}
