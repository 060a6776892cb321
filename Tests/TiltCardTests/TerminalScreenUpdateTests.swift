import Foundation
import Testing

@testable import TiltCard

/// The screen sent per frame: only what changed, nothing for no change, and
/// what a terminal then shows is the frame drawn whole.
@Suite struct TerminalScreenUpdateTests {
  typealias S = TestSupport
  typealias Mode = TerminalRenderer.ColorMode

  func frame(pitch: Double, roll: Double, flip: Double = 0, t: Double = 1) -> CardFrame {
    let motion = S.motion(at: t, pitch: pitch, roll: roll)
    let config = CardConfiguration()
    return CardFrame(
      t: t, motion: motion, pose: CardPose(attitude: motion.attitude, configuration: config),
      flipAngle: flip, flipped: flip > 90, state: .active, configuration: config)
  }

  func renderer(_ mode: Mode) -> TerminalRenderer {
    TerminalRenderer(
      configuration: CardConfiguration(), colorMode: mode, heading: "recordings/demo.evemu",
      showsTime: true, duration: 12)
  }

  @Test(arguments: [Mode.trueColor, .palette256, .palette16, .none])
  func anUnchangedFrameWritesNothing(mode: Mode) {
    var screen = TerminalScreen()
    let r = renderer(mode)
    let f = frame(pitch: 0.2, roll: -0.1)
    #expect(!screen.update(f, renderer: r, columns: 80, rows: 24).isEmpty)
    #expect(screen.update(f, renderer: r, columns: 80, rows: 24).isEmpty)
  }

  /// A replay's frames sent one after another onto a terminal that starts
  /// empty (``VirtualTerminal``) leave it as the last frame drawn whole: in
  /// 256 and 16 colours cell for cell, in 24-bit within the tolerance.
  @Test(arguments: [
    (Mode.trueColor, 80, 24), (.palette256, 80, 24), (.palette256, 120, 40),
    (.palette16, 40, 12), (.none, 80, 24), (.trueColor, 40, 12),
  ])
  func updatesLeaveTheScreenOfAFullDraw(mode: Mode, columns: Int, rows: Int) throws {
    var screen = TerminalScreen()
    let r = renderer(mode)
    var terminal = VirtualTerminal(columns: columns, rows: rows)
    var sent = 0
    var last = frame(pitch: 0, roll: 0)
    for k in 0..<40 {
      let t = Double(k) / 20
      last = frame(pitch: 0.3 * sin(t * 2), roll: 0.25 * sin(t * 3), flip: k > 30 ? 90 : 0, t: t)
      let bytes = screen.update(last, renderer: r, columns: columns, rows: rows)
      sent += bytes.count
      terminal.feed(bytes)
    }
    var fresh = VirtualTerminal(columns: columns, rows: rows)
    fresh.feed(Array("\u{1B}[2J".utf8))
    fresh.feed(Array(r.render(last, columns: columns, rows: rows).utf8))
    let tolerance = mode == .trueColor ? TerminalScreen.trueColorTolerance : 0
    var differing: [String] = []
    for row in 0..<rows {
      for column in 0..<columns {
        let a = terminal.cells[row][column]
        let b = fresh.cells[row][column]
        if !a.looksLike(b, tolerance: tolerance) {
          differing.append("(\(column), \(row)): \(a) vs \(b)")
        }
      }
    }
    #expect(differing.isEmpty, "\(differing.prefix(5))")
    let full = r.render(last, columns: columns, rows: rows).utf8.count
    #expect(sent < 40 * full / 2, "\(sent) bytes for 40 frames; one whole is \(full)")
  }

  @Test func aNewSizeOrInvalidateRedrawsWhole() {
    var screen = TerminalScreen()
    let r = renderer(.palette256)
    let f = frame(pitch: 0.1, roll: 0.1)
    _ = screen.update(f, renderer: r, columns: 80, rows: 24)
    let resized = screen.update(f, renderer: r, columns: 100, rows: 30)
    #expect(resized == Array(r.render(f, columns: 100, rows: 30).utf8))
    screen.invalidate()
    let again = screen.update(f, renderer: r, columns: 100, rows: 30)
    #expect(again == resized)
  }

  @Test func aSheenMovedByAHairSendsNothingIn24Bit() {
    var screen = TerminalScreen()
    let r = renderer(.trueColor)
    _ = screen.update(frame(pitch: 0.2, roll: 0.1), renderer: r, columns: 120, rows: 40)
    let next = screen.update(frame(pitch: 0.2001, roll: 0.1), renderer: r, columns: 120, rows: 40)
    // The status line's numbers do not change at a ten-thousandth of a radian either.
    #expect(next.count < 200, "\(next.count) bytes")
  }

  @Test func ctrlLAsksForARedraw() {
    var decoder = TerminalKeyDecoder()
    #expect(
      decoder.inputs(in: [0x0C, UInt8(ascii: " "), 0x0C]) == [.redraw, .key(.flip), .redraw])
    #expect(decoder.keys(in: [0x0C, UInt8(ascii: "q")]) == [.quit])
    // Inside an escape sequence it is no redraw.
    #expect(decoder.inputs(in: [0x1B, UInt8(ascii: "P"), 0x0C, 0x1B, UInt8(ascii: "\\")]) == [])
  }

  @Test func cursorMovesAreTheCheapest() {
    var w = TerminalScreenWriter(mode: .palette256)
    var grid = TerminalGrid(columns: 80, rows: 24)
    grid[5, 3] = TerminalCell(
      character: "x", foreground: .terminalDefault, background: .terminalDefault)
    var shown = grid
    w.move(row: 3, column: 0, over: grid, shown: &shown)
    #expect(String(decoding: w.bytes, as: UTF8.self) == "\u{1B}[4H")
    w.move(row: 3, column: 2, over: grid, shown: &shown)  // two blanks written over
    w.move(row: 3, column: 40, over: grid, shown: &shown)  // CUF
    w.move(row: 4, column: 0, over: grid, shown: &shown)  // a new line
    w.move(row: 10, column: 10, over: grid, shown: &shown)  // CUP
    #expect(
      String(decoding: w.bytes, as: UTF8.self)
        == "\u{1B}[4H  \u{1B}[38C\r\n\u{1B}[11;11H")
  }
}

/// The little a terminal does with the view's bytes: characters one column
/// each, CUP, CUF, CR, LF, SGR (the inks and bold/dim), EL and ED.
struct VirtualTerminal {
  let columns: Int
  let rows: Int
  var cells: [[TerminalCell]]
  private var row = 0
  private var column = 0
  private var pen = TerminalCell.blank

  init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
    cells = Array(repeating: Array(repeating: .blank, count: columns), count: rows)
  }

  mutating func feed(_ bytes: [UInt8]) {
    let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
    var i = 0
    while i < scalars.count {
      let c = scalars[i]
      if c == "\u{1B}", i + 1 < scalars.count, scalars[i + 1] == "[" {
        var j = i + 2
        while j < scalars.count, !(0x40...0x7E).contains(scalars[j].value) { j += 1 }
        let params = String(String.UnicodeScalarView(scalars[(i + 2)..<j]))
        control(params, final: j < scalars.count ? scalars[j] : " ")
        i = j + 1
        continue
      }
      switch c {
      case "\r": column = 0
      case "\n": row = min(row + 1, rows - 1)
      default:
        if column < columns {
          var cell = pen
          cell.character = c
          if c == " " { cell.foreground = .terminalDefault }
          cells[row][column] = cell
        }
        column = min(column + 1, columns)
      }
      i += 1
    }
  }

  private mutating func control(_ params: String, final: Unicode.Scalar) {
    let p = params.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
    switch final {
    case "H":
      row = max(min((p.first ?? 1) - 1, rows - 1), 0)
      column = max(min((p.count > 1 ? p[1] : 1) - 1, columns - 1), 0)
    case "C": column = min(column + max(p.first ?? 1, 1), columns - 1)
    case "K":
      // After the last column (a pending wrap) tmux erases nothing.
      for c in column..<max(columns, column) { cells[row][c] = blankWithPen }
    case "J":
      if p.first == 2 {
        cells = Array(repeating: Array(repeating: blankWithPen, count: columns), count: rows)
      } else {
        for c in column..<max(columns, column) { cells[row][c] = blankWithPen }
        for r in (row + 1)..<max(rows, row + 1) {
          cells[r] = Array(repeating: blankWithPen, count: columns)
        }
      }
    case "m": sgr(p)
    default: break
    }
  }

  private var blankWithPen: TerminalCell {
    TerminalCell(character: " ", foreground: .terminalDefault, background: pen.background)
  }

  private mutating func sgr(_ p: [Int]) {
    var k = 0
    while k < p.count {
      switch p[k] {
      case 0: pen = .blank
      case 1: pen.bold = true
      case 2: pen.dim = true
      case 22: (pen.bold, pen.dim) = (false, false)
      case 39: pen.foreground = .terminalDefault
      case 49: pen.background = .terminalDefault
      case 30...37, 90...97:
        pen.foreground = .ansi(UInt8(p[k] >= 90 ? p[k] - 90 + 8 : p[k] - 30))
      case 40...47, 100...107:
        pen.background = .ansi(UInt8(p[k] >= 100 ? p[k] - 100 + 8 : p[k] - 40))
      case 38, 48:
        let which = p[k]
        let ink: TerminalInk
        if k + 1 < p.count, p[k + 1] == 5, k + 2 < p.count {
          ink = .index256(UInt8(p[k + 2]))
          k += 2
        } else if k + 4 < p.count, p[k + 1] == 2 {
          ink = .rgb(UInt8(p[k + 2]), UInt8(p[k + 3]), UInt8(p[k + 4]))
          k += 4
        } else {
          ink = .terminalDefault
        }
        if which == 38 {
          pen.foreground = ink
        } else {
          pen.background = ink
        }
      default: break
      }
      k += 1
    }
  }
}

/// The palette's table gives what the search gives.
@Suite struct TerminalPaletteTableTests {
  @Test func theTableAnswersAsTheSearch() {
    let table = TerminalPaletteTable()
    var generator = SystemRandomNumberGenerator()
    var differ: [String] = []
    for _ in 0..<100_000 {
      let c = TerminalColor(
        Double.random(in: -5...260, using: &generator),
        Double.random(in: -5...260, using: &generator),
        Double.random(in: -5...260, using: &generator))
      let looked = table.nearest(c)
      let searched = TerminalPalette.nearest256(c)
      if looked != searched { differ.append("\(c): \(looked) vs \(searched)") }
    }
    #expect(differ.isEmpty, "\(differ.count): \(differ.prefix(5))")
  }
}
