import Testing

@testable import TiltCard

@Suite struct TerminalTextTests {
  @Test(arguments: [
    ("Sony DualSense", "Sony DualSense"),
    ("tab\there", "tab\there"),
    ("\u{1B}]0;owned\u{07}", "\\e]0;owned\\x07"),
    ("\u{1B}]52;c;ZWNobyBoaQ==\u{1B}\\", "\\e]52;c;ZWNobyBoaQ==\\e\\"),
    ("two\nlines\r", "two\\nlines\\r"),
    ("nul\u{0}del\u{7F}", "nul\\x00del\\x7F"),
    ("csi\u{9B}31m", "csi\\u{9B}31m"),
    ("abc\u{202E}fed", "abc\\u{202E}fed"),
    ("Pro Controller ✓ é", "Pro Controller ✓ é"),
  ])
  func controlCharactersAreShownAsEscapes(input: String, shown: String) {
    #expect(TerminalText.escaped(input) == shown)
    #expect(TerminalText.isSafe(input) == (input == shown))
  }

  @Test func escapedTextHasNoControlCharacters() {
    let every = String(String.UnicodeScalarView((0..<0x100).compactMap(Unicode.Scalar.init)))
    let shown = TerminalText.escaped(every)
    #expect(
      shown.unicodeScalars.allSatisfy {
        $0 == "\t" || ($0.value >= 0x20 && !(0x7F..<0xA0).contains($0.value))
      })
    #expect(TerminalText.isSafe(shown))
  }
}
