import Testing
import TiltCard

@testable import Tilt

/// The output a run writes: the format asked for, else the one the output fits.
@Suite struct FrameFormatTests {
  @Test func theOutputChoosesWhenNoFormatIsGiven() {
    #expect(FrameFormat.resolved(nil, output: "card.HTML", onTerminal: true) == .html)
    #expect(FrameFormat.resolved(nil, output: "frames.jsonl", onTerminal: true) == .jsonl)
    #expect(FrameFormat.resolved(nil, output: nil, onTerminal: true) == .tty)
    #expect(FrameFormat.resolved(nil, output: nil, onTerminal: false) == .jsonl)
    #expect(FrameFormat.resolved(.jsonl, output: "card.html", onTerminal: true) == .jsonl)
  }

  @Test func theTerminalViewGoesToNoFile() {
    #expect(throws: FrameFormat.Failure.terminalToFile("out.txt")) {
      _ = try FrameFormat.tty.makeSink(
        output: "out.txt", card: CardConfiguration(), title: "tilt", environment: [:])
    }
  }
}
