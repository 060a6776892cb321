import Foundation

/// Draws a frame as text for a terminal: a heading (the source, a replay's
/// time and progress, the served URL), the card with the page's design in
/// perspective, then pitch, roll, the flip and the keys.
///
/// The card is drawn in 2 × 2 subpixels a cell (``TerminalCanvas``): half
/// blocks, and quadrants where a cell's two halves differ in shape (the
/// corners, the edges, the chip), so corners are round and edges smooth at
/// 80 × 24. In 24-bit and 256 colours the card stands on a backdrop with
/// its shadow, the light and the sheen; in 16 colours the faces keep their
/// hue, the sheen is their bright variant and the shadow a hard black one;
/// without colour (``ColorMode/none``) it is the card's outline in blocks.
///
/// Text is never drawn into the pixels: each line of a face is written as
/// characters, upright and at the terminal's own size, starting at the
/// cell where its face point is projected (its left end; "TILT" its right
/// end). So it moves and tilts with the card but always reads left to right,
/// on the back as on the front (the back face is drawn pre-turned, so its
/// left is on the left after a flip). A line is drawn only where every cell
/// of it, and one cell either side, is wholly on the face, and only while the
/// face is turned less than 60° from the viewer (shade < 0.5); otherwise its
/// shorter form, or nothing: never a cut word.
///
/// ``render(_:columns:rows:)`` is pure: it returns the escape sequences that
/// home the cursor and redraw the whole screen in place. ``TerminalScreen``
/// keeps the screen it last sent and sends only what changed.
public struct TerminalRenderer: Sendable {
  /// The colours a terminal can show, chosen once from its environment
  /// (``init(environment:)``) and passed in.
  public enum ColorMode: Hashable, Sendable {
    /// 24-bit colour (`COLORTERM=truecolor` or `24bit`).
    case trueColor
    /// xterm's 256-colour palette (a `TERM` with `256color`).
    case palette256
    /// The 16 ANSI colours (8 and their bright variants) of `TERM=linux`,
    /// `vt220`, `xterm`…
    case palette16
    /// No colour escapes at all (`NO_COLOR`, `TERM=dumb`): the card in block
    /// characters, text as it is.
    case none

    /// The mode for a terminal with this environment: `NO_COLOR` set to
    /// anything (no-color.org) or `TERM` `dumb` or empty gives ``none``;
    /// `COLORTERM` `truecolor` or `24bit` gives ``trueColor``; a `TERM`
    /// ending in `-direct` too; a `TERM` with `256color` gives ``palette256``;
    /// any other `TERM` (`linux`, `xterm`, `screen`, `vt220`) ``palette16``.
    public init(environment: [String: String]) {
      let term = environment["TERM"] ?? ""
      let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
      if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
        self = .none
      } else if term.isEmpty || term == "dumb" {
        self = .none
      } else if colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct") {
        self = .trueColor
      } else if term.contains("256color") {
        self = .palette256
      } else {
        self = .palette16
      }
    }
  }

  /// The block characters the terminal's font has.
  public enum Blocks: Hashable, Sendable {
    /// Half blocks and quadrants (Block Elements): every terminal font but
    /// the console's.
    case quadrants
    /// Half blocks only (`▀▄█▌▐`): the Linux console's fonts (cp437-like)
    /// have no quadrants.
    case halfBlocks

    /// ``halfBlocks`` for the Linux console (`TERM=linux`), else ``quadrants``.
    public init(environment: [String: String]) {
      let term = environment["TERM"] ?? ""
      self = term == "linux" || term.hasPrefix("linux-") ? .halfBlocks : .quadrants
    }
  }

  public var configuration: CardConfiguration { didSet { text = TerminalFaceText(self) } }
  public var colorMode: ColorMode
  public var blocks: Blocks
  public var frontTitle: String { didSet { text = TerminalFaceText(self) } }
  public var frontSubtitle: String { didSet { text = TerminalFaceText(self) } }
  public var backTitle: String { didSet { text = TerminalFaceText(self) } }
  public var backSubtitle: String { didSet { text = TerminalFaceText(self) } }
  /// The first line: what is shown (a file, a device, the bundled demo);
  /// `nil` for none. Drawn escaped (``TerminalText/escaped(_:)``): a name
  /// comes from whoever made the device or the file.
  public var heading: String? { didSet { text = TerminalFaceText(self) } }
  /// Whether the heading shows the frame's time (a replay).
  public var showsTime: Bool
  /// A replay's length in seconds: the heading shows progress through it.
  public var duration: Double?
  /// The live page's URL (`--serve`), kept on the screen under the heading.
  public var servedURL: String?
  /// The text of the face and the heading, escaped once.
  private var text = TerminalFaceText()

  public init(
    configuration: CardConfiguration, colorMode: ColorMode = .trueColor,
    blocks: Blocks = .quadrants, frontTitle: String = "Membership",
    frontSubtitle: String = "Tilt to move it · space to flip",
    backTitle: String = "No. 2026 0042", backSubtitle: String = "Valid to 12/2026",
    heading: String? = nil, showsTime: Bool = false, duration: Double? = nil,
    servedURL: String? = nil
  ) {
    self.configuration = configuration
    self.colorMode = colorMode
    self.blocks = blocks
    self.frontTitle = frontTitle
    self.frontSubtitle = frontSubtitle
    self.backTitle = backTitle
    self.backSubtitle = backSubtitle
    self.heading = heading
    self.showsTime = showsTime
    self.duration = duration
    self.servedURL = servedURL
    text = TerminalFaceText(self)
  }

  /// The columns left blank at the left of each text line.
  func margin(_ columns: Int) -> Int { columns >= 60 ? 2 : 0 }

  /// The screen for `frame` in a terminal of `columns` × `rows` cells.
  public func render(_ frame: CardFrame, columns: Int, rows: Int) -> String {
    let grid = grid(frame, columns: columns, rows: rows, cache: TerminalRasterCache())
    return String(decoding: TerminalScreenWriter.full(grid, mode: colorMode), as: UTF8.self)
  }

  /// The screen for `frame` as cells: the heading's lines, the card, the
  /// status and the keys. `cache` keeps what the next frame can use again.
  func grid(_ frame: CardFrame, columns: Int, rows: Int, cache: TerminalRasterCache)
    -> TerminalGrid
  {
    let columns = max(columns, 12)
    let rows = max(rows, 6)
    let top = headingLines(frame, columns: columns, rows: rows)
    let bottom = [statusLine(frame, columns: columns), keysLine(frame, columns: columns)]
    let cardRows = max(rows - top.count - bottom.count, 1)
    var grid = TerminalGrid(columns: columns, rows: max(rows, top.count + cardRows + 2))
    for (row, line) in top.enumerated() {
      setLine(line, row: row, in: &grid)
    }
    drawCard(frame, columns: columns, rows: cardRows, top: top.count, into: &grid, cache: cache)
    setLine(bottom[0], row: top.count + cardRows, in: &grid)
    setLine(bottom[1], row: top.count + cardRows + 1, in: &grid, dim: true)
    return grid
  }

  /// A line of text with an optional bold part at its start.
  struct Line {
    var text: String
    var boldPrefix: Int = 0
    var accent: Range<Int>? = nil
  }

  /// The ink of the progress bar's done part.
  var accentInk: TerminalInk {
    switch colorMode {
    case .trueColor: .rgb(139, 133, 255)
    case .palette256: .index256(105)
    default: .ansi(12)
    }
  }

  private func setLine(_ line: Line, row: Int, in grid: inout TerminalGrid, dim: Bool = false) {
    grid.setText(
      line.text, row: row, boldPrefix: line.boldPrefix, accent: line.accent,
      accentInk: accentInk, dim: dim, styled: colorMode != .none)
  }

  // MARK: Heading, status, keys

  /// The heading's lines: the source with the time and progress on its
  /// right, or under it when both do not fit; the served URL.
  func headingLines(_ frame: CardFrame, columns: Int, rows: Int) -> [Line] {
    let m = margin(columns)
    let pad = String(repeating: " ", count: m)
    let room = columns - m
    var lines: [Line] = []
    let name = text.heading
    let times = timeForms(frame.t)
    if let name {
      let names = Self.shortForms(name, room)
      var placed = false
      // The full name with the longest time that fits beside it, then shorter names.
      outer: for n in names {
        for time in times {
          let gap = time.text.isEmpty ? 0 : 3
          if n.count + gap + time.text.count <= room {
            let spaces = room - n.count - time.text.count
            let text = pad + n + (time.text.isEmpty ? "" : String(repeating: " ", count: spaces))
            let accent = time.accent.map {
              ($0.lowerBound + text.count)..<($0.upperBound + text.count)
            }
            lines.append(Line(text: text + time.text, boldPrefix: m + n.count, accent: accent))
            placed = true
            break outer
          }
        }
        if n == names.last { break }
        // Before shortening the name, the time on a line of its own when there is room.
        if rows >= 16, let time = times.first, !time.text.isEmpty, n.count <= room {
          lines.append(Line(text: pad + n, boldPrefix: m + n.count))
          let text = pad
          lines.append(
            Line(
              text: text + time.text,
              accent: time.accent.map { ($0.lowerBound + m)..<($0.upperBound + m) }))
          placed = true
          break
        }
      }
      if !placed, let n = names.last {
        lines.append(Line(text: pad + n, boldPrefix: m + n.count))
      }
    } else if let time = times.first(where: { $0.text.count <= room }), !time.text.isEmpty {
      lines.append(
        Line(
          text: pad + time.text,
          accent: time.accent.map { ($0.lowerBound + m)..<($0.upperBound + m) }
        ))
    }
    if let servedURL {
      // A URL is never shortened: it wraps, whole, when it is wider than the screen.
      let url = TerminalText.escaped(servedURL)
      for text in Self.wrap(["serving", url], room) {
        lines.append(Line(text: pad + text))
      }
    }
    return lines
  }

  /// The time and progress, longest first; the last is empty.
  func timeForms(_ t: Double) -> [(text: String, accent: Range<Int>?)] {
    guard showsTime || duration != nil else { return [("", nil)] }
    let now = FixedDecimal.string(max(t, 0), decimals: 1)
    guard let duration, duration > 0 else { return [(now + " s", nil), ("", nil)] }
    let total = FixedDecimal.string(duration, decimals: 1)
    let fraction = min(max(t / duration, 0), 1)
    let short = now + " / " + total + " s"
    var out: [(String, Range<Int>?)] = []
    for width in [20, 12] {
      let done = Int((fraction * Double(width)).rounded())
      let bar = String(repeating: "━", count: done) + String(repeating: "─", count: width - done)
      let text = short + "  " + bar
      out.append((text, (short.count + 2)..<(short.count + 2 + done)))
    }
    out.append((short, nil))
    out.append((now + " s", nil))
    out.append(("", nil))
    return out
  }

  /// `text`, then shorter forms that cut no word: without its parenthesis,
  /// a path's last part, whole words with "…", and for one long word (a file
  /// name) its two ends around "…".
  static func shortForms(_ text: String, _ room: Int) -> [String] {
    var forms = [text]
    if let paren = text.range(of: " (") {
      forms.append(String(text[..<paren.lowerBound]))
    }
    if !text.contains(" "), let slash = text.lastIndex(of: "/"),
      text.index(after: slash) < text.endIndex
    {
      forms.append(String(text[text.index(after: slash)...]))
    }
    if let fit = forms.first(where: { $0.count <= room }) {
      return Array(forms.prefix { $0 != fit }) + [fit]
    }
    let base = forms.last!
    let words = base.split(separator: " ")
    if words.count > 1 {
      var kept = ""
      for w in words {
        let next = kept.isEmpty ? String(w) : kept + " " + w
        if next.count + 1 > room { break }
        kept = next
      }
      if !kept.isEmpty { return forms + [kept + "…"] }
    }
    let keep = max(room - 1, 2)
    let head = (keep + 1) / 2
    let tail = keep - head
    return forms + [String(base.prefix(head)) + "…" + String(base.suffix(tail))]
  }

  /// `words` joined by spaces in lines of at most `width`; a word longer than
  /// a line is split across lines, never dropped.
  static func wrap(_ words: [String], _ width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in words {
      if line.isEmpty {
        line = word
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = word
      }
      while line.count > width {
        lines.append(String(line.prefix(width)))
        line = String(line.dropFirst(width))
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// Degrees with one decimal and a sign always: "+0.0°", "−3.2°" (U+2212,
  /// the minus sign), never "-0.0°" beside "+0.0°". Padded on the left to `width`.
  static func signedDegrees(_ radians: Double, width: Int) -> String {
    let d = radians * 180 / .pi
    let tenths = (d * 10).rounded()
    let negative = tenths < 0
    let text =
      (negative ? "\u{2212}" : "+") + FixedDecimal.string(abs(tenths) / 10, decimals: 1) + "°"
    return String(repeating: " ", count: max(width - text.count, 0)) + text
  }

  /// Pitch and roll of the device (degrees), the card's flip and face, the
  /// state, each in a column of its own width so nothing moves as the
  /// numbers change; what does not fit is left out, the flip angle first.
  public func statusLine(_ frame: CardFrame) -> String {
    statusLine(frame, columns: 200).text.trimmingCharacters(in: .whitespaces)
  }

  func statusLine(_ frame: CardFrame, columns: Int) -> Line {
    let a = frame.motion.attitude
    let m = margin(columns)
    let room = columns - m
    let flip = String(Int(frame.flipAngle.rounded()))
    let stopped = frame.state == .stopped
    // (text, the order it is left out in: higher first)
    var items: [(String, Int)] = [
      ("pitch " + Self.signedDegrees(a.pitch, width: 6), 0),
      ("roll " + Self.signedDegrees(a.roll, width: 7), 0),
      ("flip " + String(repeating: " ", count: max(3 - flip.count, 0)) + flip + "°", 4),
      (frame.face.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0), 2),
      (frame.state.rawValue, stopped ? 1 : 3),
    ]
    while true {
      for sep in ["   ", "  "] {
        let text = items.map(\.0).joined(separator: sep)
        if text.count <= room {
          return Line(text: String(repeating: " ", count: m) + text)
        }
      }
      guard let drop = items.indices.max(by: { items[$0].1 < items[$1].1 }), items[drop].1 > 0
      else { break }
      items.remove(at: drop)
    }
    return Line(text: String(repeating: " ", count: m) + items.map(\.0).joined(separator: " "))
  }

  /// The keys, in fewer words when the screen is narrow.
  func keysLine(_ frame: CardFrame, columns: Int) -> Line {
    let m = margin(columns)
    let forms = [
      TerminalKey.helpLine, "space flip · r recenter · p stop · q quit",
      "space flip  r recenter  p stop  q quit", "space flip  p stop  q quit", "q quit",
    ]
    let text = forms.first { $0.count <= columns - m } ?? "q quit"
    return Line(text: String(repeating: " ", count: m) + text)
  }

  // MARK: The card

  private func drawCard(
    _ frame: CardFrame, columns: Int, rows: Int, top: Int, into grid: inout TerminalGrid,
    cache: TerminalRasterCache
  ) {
    let face = TerminalCardFace(width: configuration.width, height: configuration.height)
    let backdrop = colorMode == .trueColor || colorMode == .palette256
    let canvas = TerminalCanvas(
      frame: frame, face: face, columns: columns, rows: rows, backdrop: backdrop,
      hardShadow: colorMode == .palette16, smooth: colorMode == .trueColor, cache: cache)
    var cells = TerminalCells(canvas: canvas, mode: colorMode, blocks: blocks, cache: cache)
    placeText(frame, canvas: canvas, cells: &cells)
    // The rows below the heading, in one copy (not a check of the grid's
    // storage per cell).
    grid.cells.withUnsafeMutableBufferPointer { to in
      cells.cells.withUnsafeBufferPointer { from in
        _ = to[(top * columns)..<((top + rows) * columns)].update(fromContentsOf: from)
      }
    }
    for row in 0..<rows { grid.exact[top + row] = cells.exact[row] }
    cache.recycle(canvas)
  }

  /// Writes the face's lines into `cells` where they fit (see the type's comment).
  private func placeText(
    _ frame: CardFrame, canvas: TerminalCanvas, cells: inout TerminalCells
  ) {
    guard frame.extras.shade < 0.5 else { return }
    // The spans of cells taken by the lines placed, by row.
    var used: [(row: Int, span: ClosedRange<Int>)] = []
    func onFace(_ column: Int, _ row: Int) -> Bool {
      guard column >= 0, column < canvas.columns, row >= 0, row < canvas.rows else {
        return false
      }
      let top = (2 * row) * canvas.subWidth + 2 * column
      let bottom = top + canvas.subWidth
      for i in [top, top + 1, bottom, bottom + 1]
      where !(canvas.coverage[i] >= 1 && canvas.materials[i] == .face) {
        return false
      }
      return true
    }
    for placed in frame.face == .front ? text.front : text.back {
      let line = placed.line
      guard let p = canvas.project(frame, line.u, line.v) else { continue }
      let row = Int((p.y / 2).rounded(.down))
      let anchor = Int((p.x / 2).rounded())
      for chars in placed.variants {
        let start = line.alignment == .left ? anchor : anchor - chars.count
        let span = (start - 1)...(start + chars.count)
        guard span.allSatisfy({ onFace($0, row) }),
          !used.contains(where: { $0.row == row && $0.span.overlaps(span) })
        else { continue }
        for (k, ch) in chars.enumerated() {
          cells.write(ch, column: start + k, row: row, bold: line.bold, opacity: line.opacity)
        }
        used.append((row, span))
        break
      }
    }
  }
}
