import Attitude
import Foundation
import TestTools
import Testing

@testable import TiltCard

/// Issue 14: the terminal view honours `NO_COLOR` and low-colour terminals,
/// the mode decided once from the environment and passed in as a value.
@Suite struct TerminalColorTests {
  typealias Mode = TerminalRenderer.ColorMode

  @Test(arguments: [
    (["NO_COLOR": "1", "TERM": "xterm-256color", "COLORTERM": "truecolor"], Mode.none),
    (["NO_COLOR": "", "TERM": "xterm-256color"], .palette256),
    (["TERM": "dumb"], .none),
    ([:], .none),
    (["TERM": "linux"], .palette16),
    (["TERM": "vt220"], .palette16),
    (["TERM": "xterm"], .palette16),
    (["TERM": "screen"], .palette16),
    (["TERM": "xterm-256color"], .palette256),
    (["TERM": "tmux-256color"], .palette256),
    (["TERM": "xterm-256color", "COLORTERM": "truecolor"], .trueColor),
    (["TERM": "xterm", "COLORTERM": "24bit"], .trueColor),
    (["TERM": "xterm-direct"], .trueColor),
    (["TERM": "linux", "COLORTERM": "TrueColor"], .trueColor),
  ])
  func modeFromTheEnvironment(environment: [String: String], mode: Mode) {
    #expect(Mode(environment: environment) == mode)
  }

  func frame(flip: Double = 0) -> CardFrame {
    let motion = TestSupport.motion(at: 1, pitch: 0.2, roll: -0.1)
    let config = CardConfiguration()
    return CardFrame(
      t: 1, motion: motion, pose: CardPose(attitude: motion.attitude, configuration: config),
      flipAngle: flip, flipped: flip > 90, state: .active, configuration: config)
  }

  /// The parameters of every SGR sequence (`ESC [ … m`) in `text`, in one pass.
  func sgr(_ text: String) -> Set<String> {
    TerminalText.sgrParameters(in: text)
  }

  @Test(arguments: [0.0, 180.0])
  func noColorHasNoColourEscapesAndStillShowsTheCard(flip: Double) {
    let renderer = TerminalRenderer(configuration: CardConfiguration(), colorMode: .none)
    let screen = renderer.render(frame(flip: flip), columns: 80, rows: 24)
    #expect(sgr(screen).isEmpty, "no SGR at all: \(Set(sgr(screen)))")
    #expect(screen.contains("█"), "the card is drawn in blocks")
    #expect(screen.contains(flip == 0 ? "Membership" : "No. 2026 0042"))
    #expect(screen.contains("pitch +11.5°"))
    #expect(screen.contains("q quit"))
  }

  /// 16 colours: the 8 ANSI colours and their bright variants (the sheen,
  /// the text), bold and normal: what the Linux console and xterm both show.
  @Test func sixteenColoursUseOnlyTheSixteenAnsiColours() {
    let renderer = TerminalRenderer(configuration: CardConfiguration(), colorMode: .palette16)
    for flip in [0.0, 180.0] {
      let codes = Set(sgr(renderer.render(frame(flip: flip), columns: 80, rows: 24)))
      #expect(!codes.isEmpty)
      for code in codes {
        let ok =
          ["0", "1", "2", "22", "39", "49"].contains(code)
          || (Int(code).map {
            (30...37).contains($0) || (40...47).contains($0) || (90...97).contains($0)
              || (100...107).contains($0)
          } ?? false)
        #expect(ok, "'\(code)' is a 16-colour SGR")
      }
    }
  }

  /// The faces keep their hue when shaded: blue front, cyan back, a yellow chip.
  @Test func facesKeepTheirHueInSixteenColours() {
    typealias F = TerminalCardFace
    typealias P = TerminalPalette
    let (f0, f1) = F.frontGradient
    let (b0, b1) = F.backGradient
    for c in [f0, f1] {
      #expect([4, 5].contains(P.ansiHue(c)), "front \(c)")
      #expect([4, 5].contains(P.ansiHue(c.scaled(0.4))), "front shaded \(c)")
    }
    for c in [b0, b1] {
      #expect([2, 6].contains(P.ansiHue(c)), "back \(c)")
      #expect([2, 6].contains(P.ansiHue(c.scaled(0.4))), "back shaded \(c)")
    }
    #expect(P.ansiHue(F.chipColors.1) == 3)
    #expect(P.ansiHue(.white) == 7)
    #expect(P.ansiHue(TerminalColor(10, 10, 10)) == 0)
  }

  @Test func headingIsTheFirstLineAndTheCardMakesRoom() {
    var renderer = TerminalRenderer(configuration: CardConfiguration())
    renderer.heading = "Demo: the bundled recording"
    let screen = renderer.render(frame(), columns: 80, rows: 24)
    let rows = screen.replacingOccurrences(
      of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression
    ).components(separatedBy: "\r\n")
    #expect(rows.count == 24)
    #expect(rows[0] == "  Demo: the bundled recording")
    #expect(rows[22].contains("pitch"))
    #expect(rows[23].contains("q quit"))
  }
}
