import Testing
import TiltCard

@Suite struct TerminalKeyDecoderTests {
  func keys(_ reads: String...) -> [TerminalKey] {
    var decoder = TerminalKeyDecoder()
    return reads.flatMap { decoder.keys(in: Array($0.utf8)) }
  }

  @Test func plainKeysAreTheViewsKeys() {
    #expect(keys(" rpq") == [.flip, .recenter, .toggleUpdates, .quit])
    #expect(keys("x\u{03}") == [.quit])
  }

  /// F1–F4 (`ESC O P`…`ESC O S`, or `ESC [ 11~`), arrows, Alt with a key, a
  /// cursor report (`ESC [ 12;40 R`) and a colour report (`ESC ] 11;rgb:… BEL`)
  /// are no keys of the view: before, F1 stopped updates, F2 quit, F3 recentered.
  @Test func escapeSequencesAreNotKeys() {
    #expect(keys("\u{1B}OP\u{1B}OQ\u{1B}OR\u{1B}OS") == [])
    #expect(keys("\u{1B}[11~\u{1B}[1;5P\u{1B}[A\u{1B}[12;40R") == [])
    #expect(keys("\u{1B}q\u{1B}p") == [])
    #expect(keys("\u{1B}]11;rgb:0000/0000/0000\u{07}p") == [.toggleUpdates])
    #expect(keys("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\r") == [.recenter])
  }

  @Test func aSequenceSplitBetweenReadsIsStillSkipped() {
    #expect(keys("\u{1B}[1;5", "Rq") == [.quit])
    #expect(keys("\u{1B}O", "Pp") == [.toggleUpdates])
  }

  /// The Esc key alone (a read that ends with ESC) does not eat the next key.
  @Test func aLoneEscapeKeyIsForgotten() {
    #expect(keys("\u{1B}", "p") == [.toggleUpdates])
  }
}
