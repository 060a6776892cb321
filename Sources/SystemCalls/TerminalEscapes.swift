/// The one rule for printing text that a device or a file chose (a device's
/// name, a recording's `N:` line) to a terminal (contract §3.10).
///
/// Such text may carry escape sequences that retitle the terminal, move the
/// cursor or write the clipboard (OSC 52). Every control character (C0, DEL,
/// C1) and every bidirectional override is shown as a visible escape
/// instead: `\e`, `\n`, `\x07`, `\u{202E}`. Printable text, tabs included,
/// is left as it is. TiltCard's `TerminalText` and Motion's notes both ask
/// it.
package enum TerminalEscapes {
  /// `text` with its control characters shown as escapes.
  package static func escaped(_ text: some StringProtocol) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if let escape = escape(for: scalar) {
        out += escape
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Whether `text` prints as it is.
  package static func isSafe(_ text: some StringProtocol) -> Bool {
    text.unicodeScalars.allSatisfy { escape(for: $0) == nil }
  }

  private static func escape(for scalar: Unicode.Scalar) -> String? {
    switch scalar.value {
    case 0x09: return nil
    case 0x0A: return "\\n"
    case 0x0D: return "\\r"
    case 0x1B: return "\\e"
    case 0x5C: return nil
    case 0x00..<0x20, 0x7F: return "\\x" + hex(scalar.value, width: 2)
    case 0x80..<0xA0: return "\\u{" + hex(scalar.value, width: 2) + "}"
    // Bidirectional embeddings, overrides and isolates reorder what follows them.
    case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C:
      return "\\u{" + hex(scalar.value, width: 4) + "}"
    default: return nil
    }
  }

  private static func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
