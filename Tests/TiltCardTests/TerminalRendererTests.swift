import Attitude
import Foundation
import Testing

@testable import TiltCard

@Suite struct TerminalRendererTests {
  typealias S = TestSupport
  let renderer = TerminalRenderer(configuration: CardConfiguration())

  func frame(pitch: Double = 0.2, roll: Double = -0.1, flip: Double = 0) -> CardFrame {
    let motion = S.motion(at: 1, pitch: pitch, roll: roll)
    return CardFrame(
      t: 1, motion: motion,
      pose: CardPose(attitude: motion.attitude, configuration: CardConfiguration()),
      flipAngle: flip, flipped: flip > 90, state: .active, configuration: CardConfiguration())
  }

  /// The screen without escape sequences, one string a row.
  func plainRows(_ screen: String) -> [String] {
    let stripped = screen.replacingOccurrences(
      of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
    return stripped.components(separatedBy: "\r\n")
  }

  @Test func frontShowsTitlePitchRollAndKeys() {
    let screen = renderer.render(frame(), columns: 80, rows: 24)
    #expect(screen.hasPrefix("\u{1B}[H"))
    let rows = plainRows(screen)
    #expect(rows.count == 24)
    #expect(rows.contains { $0.contains("FRONT") })
    #expect(rows[22].contains("pitch +11.5°") && rows[22].contains("roll -5.7°"))
    #expect(rows[23].contains("space flip") && rows[23].contains("q quit"))
    #expect(screen.contains("▀"))
    #expect(screen.contains("38;2;"), "24-bit colour")
    let written = S.packageRoot.appendingPathComponent(".build/tiltcard-tty-sample.txt")
    try? screen.write(to: written, atomically: true, encoding: .utf8)
  }

  @Test func backAfterTheFlip() {
    let rows = plainRows(renderer.render(frame(flip: 180), columns: 80, rows: 24))
    #expect(rows.contains { $0.contains("BACK") })
    #expect(!rows.contains { $0.contains("FRONT") })
  }

  /// The marker letter sits left of the title on both faces: never mirrored.
  @Test(arguments: [0.0, 180.0])
  func markerStaysOnTheLeft(flip: Double) {
    let rows = plainRows(
      renderer.render(frame(pitch: 0, roll: 0, flip: flip), columns: 80, rows: 24))
    let title = flip == 0 ? "FRONT" : "BACK"
    let marker: Character = flip == 0 ? "F" : "B"
    let titleRow = rows.first { $0.contains(title) }!
    let titleColumn = titleRow.distance(
      from: titleRow.startIndex, to: titleRow.range(of: title)!.lowerBound)
    let markerRow = rows.first { row in
      row.contains(marker) && !row.contains(title)
    }!
    let markerColumn = markerRow.distance(
      from: markerRow.startIndex, to: markerRow.firstIndex(of: marker)!)
    #expect(markerColumn < titleColumn - 10)
  }

  @Test func edgeOnCardIsNarrow() {
    let screen = renderer.render(frame(pitch: 0, roll: 0, flip: 88), columns: 80, rows: 24)
    let rows = plainRows(screen)
    // Count drawn cells in the middle row: a sliver, no title.
    let middle = rows[11]
    #expect(middle.filter { $0 != " " }.count < 8)
    #expect(!rows.contains { $0.contains("FRONT") || $0.contains("BACK") })
  }

  @Test func palette256() {
    var r = renderer
    r.colorMode = .palette256
    let screen = r.render(frame(), columns: 40, rows: 12)
    #expect(screen.contains("38;5;"))
    #expect(!screen.contains("38;2;"))
  }

  @Test func keys() {
    #expect(TerminalKey(byte: UInt8(ascii: " ")) == .flip)
    #expect(TerminalKey(byte: UInt8(ascii: "p"))?.sessionCommand == .toggleUpdates)
    #expect(TerminalKey(byte: UInt8(ascii: "q")) == .quit)
    #expect(TerminalKey(byte: UInt8(ascii: "x")) == nil)
  }
}
