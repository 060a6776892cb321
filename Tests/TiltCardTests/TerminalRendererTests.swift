import Attitude
import Foundation
import Testing

@testable import TiltCard

/// The terminal card as cells: the page's faces, text that reads (never
/// mirrored, never cut), round corners, a heading with the source.
@Suite struct TerminalRendererTests {
  typealias S = TestSupport
  typealias Mode = TerminalRenderer.ColorMode
  let renderer = TerminalRenderer(configuration: CardConfiguration())

  func frame(
    pitch: Double = 0.2, roll: Double = -0.1, flip: Double = 0, state: UpdateState = .active,
    t: Double = 1
  ) -> CardFrame {
    let motion = S.motion(at: t, pitch: pitch, roll: roll)
    return CardFrame(
      t: t, motion: motion,
      pose: CardPose(attitude: motion.attitude, configuration: CardConfiguration()),
      flipAngle: flip, flipped: flip > 90, state: state, configuration: CardConfiguration())
  }

  /// The screen without escape sequences, one string a row.
  static func plainRows(_ screen: String) -> [String] {
    let stripped = screen.replacingOccurrences(
      of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
    return stripped.components(separatedBy: "\r\n")
  }

  /// The cells of a screen: each row's characters with their background
  /// (24-bit: r, g, b; nil for the terminal's own).
  static func cells(_ screen: String) -> [[(Character, (Int, Int, Int)?)]] {
    var rows: [[(Character, (Int, Int, Int)?)]] = [[]]
    var bg: (Int, Int, Int)?
    let scalars = Array(screen.unicodeScalars)
    var i = 0
    while i < scalars.count {
      let c = scalars[i]
      if c == "\u{1B}" {
        var j = i + 2
        while j < scalars.count, !(0x40...0x7E).contains(scalars[j].value) { j += 1 }
        let params = String(String.UnicodeScalarView(scalars[(i + 2)..<j]))
        if j < scalars.count, scalars[j] == "m" {
          let p = params.split(separator: ";").compactMap { Int($0) }
          if p == [0] || p == [49] { bg = nil }
          if p.count == 5, p[0] == 48, p[1] == 2 { bg = (p[2], p[3], p[4]) }
        }
        i = j + 1
        continue
      }
      if c == "\r" {
        i += 1
        continue
      }
      if c == "\n" {
        rows.append([])
        i += 1
        continue
      }
      rows[rows.count - 1].append((Character(c), bg))
      i += 1
    }
    return rows
  }

  static let blocks = Set("▘▝▀▖▌▞▛▗▚▐▜▄▙▟█")

  @Test func frontHasThePagesFaceAndTheStatusAndKeys() {
    let screen = renderer.render(frame(), columns: 80, rows: 24)
    #expect(screen.hasPrefix("\u{1B}[H"))
    let rows = Self.plainRows(screen)
    #expect(rows.count == 24)
    for text in ["Membership", "Tilt to move it · space to flip", "T I L T"] {
      #expect(rows.contains { $0.contains(text) }, "\(text):\n\(rows.joined(separator: "\n"))")
    }
    #expect(!rows.contains { $0.contains("FRONT") || $0.contains("No. 2026") })
    #expect(rows[22].contains("pitch +11.5°") && rows[22].contains("roll   \u{2212}5.7°"))
    #expect(rows[23].contains("space flip") && rows[23].contains("q quit"))
    #expect(screen.contains("38;2;") && screen.contains("48;2;"), "24-bit colour")
  }

  @Test func backAfterTheFlipHasTheNumberTheCodeAndValidUntil() {
    let rows = Self.plainRows(renderer.render(frame(flip: 180), columns: 80, rows: 24))
    #expect(rows.contains { $0.contains("No. 2026 0042") }, "\(rows.joined(separator: "\n"))")
    #expect(rows.contains { $0.contains("Valid to 12/2026") })
    #expect(!rows.contains { $0.contains("Membership") || $0.contains("T I L T") })
  }

  /// Never mirrored: on the front the chip (gold) is left of the middle and
  /// TILT right of it; on the back the number reads forwards on the left and
  /// the code (white) is right of the middle. A mirrored face would swap them.
  @Test(arguments: [(0.0, 0.0), (0.2, -0.15), (-0.2, 0.2)])
  func neitherFaceIsMirrored(pitch: Double, roll: Double) {
    let columns = 80
    let front = Self.cells(
      renderer.render(frame(pitch: pitch, roll: roll), columns: columns, rows: 24))
    let back = Self.cells(
      renderer.render(frame(pitch: pitch, roll: roll, flip: 180), columns: columns, rows: 24))
    func columnsWhere(_ rows: [[(Character, (Int, Int, Int)?)]], _ test: ((Int, Int, Int)) -> Bool)
      -> [Int]
    {
      rows.flatMap { row in row.indices.filter { row[$0].1.map(test) ?? false } }
    }
    let gold = columnsWhere(front) { $0.0 > 180 && $0.1 > 140 && $0.2 < 90 }
    let white = columnsWhere(back) { $0.0 > 220 && $0.1 > 220 && $0.2 > 220 }
    #expect(!gold.isEmpty && gold.allSatisfy { $0 < columns / 2 }, "the chip is on the left")
    #expect(!white.isEmpty && white.allSatisfy { $0 > columns / 2 }, "the code is on the right")
    let backText = back.map { String($0.map(\.0)) }
    let number = backText.first { $0.contains("No. 2026 0042") }
    #expect(number != nil, "the number reads forwards:\n\(backText.joined(separator: "\n"))")
    if let number, let r = number.range(of: "No. 2026 0042") {
      #expect(number.distance(from: number.startIndex, to: r.lowerBound) < columns / 2)
    }
    let frontText = front.map { String($0.map(\.0)) }
    let brand = frontText.first { $0.contains("T I L T") }
    if let brand, let r = brand.range(of: "T I L T") {
      #expect(brand.distance(from: brand.startIndex, to: r.lowerBound) > columns / 2)
    } else {
      Issue.record("TILT is on the front:\n\(frontText.joined(separator: "\n"))")
    }
  }

  /// Readable while tilted: at the largest tilt the card takes (15° each
  /// way), both faces keep their title whole, white on the face with a
  /// contrast of at least 3:1 (WCAG's for large text).
  @Test(arguments: [(-1.0, -1.0), (1.0, 1.0), (1.0, -1.0), (-1.0, 1.0)])
  func textStaysReadableTilted(pitch: Double, roll: Double) {
    for (flip, title) in [(0.0, "Membership"), (180.0, "No. 2026 0042")] {
      let screen = renderer.render(
        frame(pitch: pitch, roll: roll, flip: flip), columns: 80, rows: 24)
      let rows = Self.cells(screen)
      let text = rows.map { String($0.map(\.0)) }
      guard let r = text.firstIndex(where: { $0.contains(title) }) else {
        Issue.record("\(title) at pitch \(pitch) roll \(roll):\n\(text.joined(separator: "\n"))")
        continue
      }
      let line = text[r]
      let start = line.distance(from: line.startIndex, to: line.range(of: title)!.lowerBound)
      // The title's cells have the face under them, and white text reads on it.
      let bg = rows[r][start].1
      #expect(bg != nil)
      if let (red, green, blue) = bg {
        func lin(_ c: Int) -> Double {
          let x = Double(c) / 255
          return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
        }
        let l = 0.2126 * lin(red) + 0.7152 * lin(green) + 0.0722 * lin(blue)
        #expect((1.05) / (l + 0.05) >= 3, "contrast of white on \(red),\(green),\(blue)")
      }
    }
  }

  /// The first and last drawn column of each row of the card, in the
  /// monochrome drawing (blocks on the terminal's background).
  func outline(flip: Double = 0, pitch: Double = 0, roll: Double = 0) -> [(Int, Int, String)] {
    var r = renderer
    r.colorMode = .none
    let rows = Self.plainRows(
      r.render(frame(pitch: pitch, roll: roll, flip: flip), columns: 80, rows: 24))
    var out: [(Int, Int, String)] = []
    for row in rows.dropFirst().dropLast(2) {
      let chars = Array(row)
      guard let first = chars.firstIndex(where: { Self.blocks.contains($0) }),
        let last = chars.lastIndex(where: { Self.blocks.contains($0) })
      else { continue }
      out.append((first, last, row))
    }
    return out
  }

  /// Round corners: the card's top and bottom rows are shorter than its
  /// middle, and the corner cells are partly drawn (a quadrant or a half
  /// block), not whole blocks; the straight edges have no notch.
  @Test(arguments: [0.0, 180.0])
  func cornersAreRoundAndEdgesStraight(flip: Double) {
    let rows = outline(flip: flip)
    try? #require(rows.count >= 10)
    let middle = rows[rows.count / 2]
    let top = rows[0]
    let bottom = rows[rows.count - 1]
    #expect(top.0 > middle.0 && top.1 < middle.1, "top row \(top) vs middle \(middle)")
    #expect(bottom.0 > middle.0 && bottom.1 < middle.1, "bottom row \(bottom) vs middle \(middle)")
    let corner = Array(top.2)[top.0]
    #expect(corner != "█", "the top-left corner cell is partly drawn: '\(corner)'")
    // Between the corners the left and right edges are one column each.
    let straight = rows[3..<(rows.count - 3)]
    #expect(Set(straight.map(\.0)).count == 1, "left edge \(straight.map(\.0))")
    #expect(Set(straight.map(\.1)).count == 1, "right edge \(straight.map(\.1))")
    // And the corners step in evenly: each row of a corner at most 3 columns in from the next.
    for k in 0..<3 {
      #expect(rows[k].0 >= rows[k + 1].0 && rows[k].0 - rows[k + 1].0 <= 3)
    }
  }

  /// Tilted, an edge is a slanted line: its first column moves one way only.
  @Test func aTiltedEdgeHasNoNotches() {
    let rows = outline(pitch: 0.5, roll: 0.6)
    let firsts = rows.map(\.0)
    let middle = firsts[3..<(firsts.count - 3)]
    let steps = zip(middle, middle.dropFirst()).map { $1 - $0 }
    #expect(steps.allSatisfy { $0 >= 0 } || steps.allSatisfy { $0 <= 0 }, "\(firsts)")
    #expect(steps.allSatisfy { abs($0) <= 2 }, "\(firsts)")
  }

  @Test func edgeOnCardIsNarrowWithoutText() {
    var r = renderer
    r.colorMode = .none
    let rows = Self.plainRows(r.render(frame(pitch: 0, roll: 0, flip: 88), columns: 80, rows: 24))
    let drawn = rows[11].filter { Self.blocks.contains($0) }.count
    #expect(drawn < 8, "\(rows[11])")
    #expect(!rows.contains { $0.contains("Membership") || $0.contains("No. 2026") })
  }

  /// Signs one way: "+0.0°" for what rounds to zero from either side, "−"
  /// (U+2212) for negatives, each number in a column of its own width.
  @Test func statusSignsAndColumns() {
    let zero = renderer.statusLine(frame(pitch: -0.0001, roll: 0.0001))
    #expect(zero.hasPrefix("pitch  +0.0°   roll   +0.0°   flip   0°   front   active"), "\(zero)")
    let negative = renderer.statusLine(frame(pitch: -0.0559, roll: -1.2, state: .stopped))
    #expect(
      negative.hasPrefix("pitch  \u{2212}3.2°   roll  \u{2212}68.8°   flip   0°   front   stopped"),
      "\(negative)")
    #expect(!zero.contains("-") && !negative.contains("-"), "no hyphen-minus")
  }

  @Test func headingNamesTheSourceEscapedWithTimeAndProgress() {
    var r = renderer
    r.heading = "evil\u{1B}]0;owned\u{07}.evemu"
    r.showsTime = true
    r.duration = 12
    let screen = r.render(frame(t: 3), columns: 80, rows: 24)
    #expect(!screen.contains("\u{1B}]"), "no raw OSC from the name")
    let rows = Self.plainRows(screen)
    #expect(rows[0].hasPrefix("  evil\\e]0;owned\\x07.evemu"), "\(rows[0])")
    #expect(rows[0].contains("3.0 / 12.0 s  ━━━━━───────────────"), "\(rows[0])")
    #expect(rows[0].count == 80)
  }

  @Test func servedURLStaysUnderTheHeading() {
    var r = renderer
    r.heading = "recordings/demo.evemu"
    r.showsTime = true
    r.servedURL = "http://127.0.0.1:8123/"
    for (columns, rowCount) in [(80, 24), (40, 12)] {
      let rows = Self.plainRows(r.render(frame(), columns: columns, rows: rowCount))
      #expect(rows[1].contains("serving http://127.0.0.1:8123/"), "\(rows)")
      #expect(rows.count == rowCount)
    }
  }

  /// Graceful at 40 × 12: less is said, but every word on the screen is
  /// whole (a word of what would be said with room), and no line is wider
  /// than the screen.
  @Test(arguments: [0.0, 180.0])
  func fortyByTwelveSaysLessButCutsNoWord(flip: Double) {
    var r = renderer
    r.heading = "Demo: the bundled recording (no motion device found; see 'tilt-cli devices')"
    r.showsTime = true
    r.duration = 12
    r.servedURL = "http://127.0.0.1:41234/"
    let f = frame(pitch: -0.3, roll: 0.4, flip: flip, state: .stopped)
    let rows = Self.plainRows(r.render(f, columns: 40, rows: 12))
    #expect(rows.count == 12)
    let full = [
      r.heading!, "1.0 / 12.0 s", "serving", r.servedURL!, TerminalKey.helpLine,
      r.statusLine(f), r.frontTitle, r.frontSubtitle, r.backTitle, r.backSubtitle, "T I L T",
      "…", "p stop",
    ]
    let vocabulary = Set(full.flatMap { $0.split(separator: " ").map(String.init) })
    for row in rows {
      #expect(row.count <= 40, "'\(row)' is \(row.count) wide")
      let words = row.split { $0 == " " || Self.blocks.contains($0) || $0 == "━" || $0 == "─" }
      for word in words {
        let w = String(word)
        #expect(
          vocabulary.contains(w) || vocabulary.contains(w.replacingOccurrences(of: "…", with: "")),
          "'\(w)' is a cut word in '\(row)':\n\(rows.joined(separator: "\n"))")
      }
    }
    #expect(rows[0].hasPrefix("Demo: the bundled recording"), "\(rows[0])")
    #expect(rows.contains { $0.contains(flip == 0 ? "Membership" : "No. 2026 0042") })
    #expect(rows.contains { $0.contains("pitch") && $0.contains("roll") && $0.contains("stopped") })
  }

  @Test func palette256() {
    var r = renderer
    r.colorMode = .palette256
    let screen = r.render(frame(), columns: 40, rows: 12)
    #expect(screen.contains("38;5;"))
    #expect(!screen.contains("38;2;"))
  }

  /// In 256 colours the sheen over a face never comes out darker than the
  /// face without it or with half of it (it did: a darker ring on the
  /// violet front at 120 × 40, where the faint edge of the sheen took a
  /// lighter colour than its middle), and the
  /// faces keep their hue (violet: more blue than green, red not below green;
  /// teal: more green than red). Through the renderer's own quantisation.
  @Test func palette256KeepsLightAndHue() {
    for (gradient, violet) in [
      (TerminalCardFace.frontGradient, true), (TerminalCardFace.backGradient, false),
    ] {
      for t in stride(from: 0.0, through: 1.0, by: 0.1) {
        for shade in [1.0, 0.8] {
          let face = TerminalColor.mix(gradient.0, gradient.1, t).scaled(shade)
          for s in stride(from: 0.02, through: 0.3, by: 0.02) {
            let lit = face.screened(s)
            let (_, q) = TerminalCells.quantize(lit, glow: s, mode: .palette256)
            guard let c = q else { continue }
            for k in [0, 2] {
              let less = face.screened(s * Double(k) / 4)
              let (_, p) = TerminalCells.quantize(
                less, glow: s * Double(k) / 4, mode: .palette256)
              #expect(c.luma >= p!.luma, "sheen \(s) on \(face): \(c); \(k)/4 of it: \(p!)")
            }
            if violet {
              #expect(c.b > c.g && c.r >= c.g, "violet stays violet: \(c)")
            } else {
              #expect(c.g > c.r, "teal stays teal: \(c)")
            }
          }
        }
      }
    }
  }

  /// The back's code is the page's: the same modules.
  @Test func codeIsThePagesCode() {
    var d = ""
    for y in 0..<CardCode.size {
      for x in 0..<CardCode.size where CardCode.module(x: x, y: y) { d += "M\(x),\(y)h1v1h-1z" }
    }
    #expect(HTMLRenderer.codeSVG.contains("d=\"\(d)\""))
  }

  @Test func keys() {
    #expect(TerminalKey(byte: UInt8(ascii: " ")) == .flip)
    #expect(TerminalKey(byte: UInt8(ascii: "p"))?.sessionCommand == .toggleUpdates)
    #expect(TerminalKey(byte: UInt8(ascii: "q")) == .quit)
    #expect(TerminalKey(byte: UInt8(ascii: "x")) == nil)
  }
}
