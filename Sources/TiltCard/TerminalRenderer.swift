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
/// home the cursor and redraw the whole screen in place.
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

  public var configuration: CardConfiguration
  public var colorMode: ColorMode
  public var blocks: Blocks
  public var frontTitle: String
  public var frontSubtitle: String
  public var backTitle: String
  public var backSubtitle: String
  /// The first line: what is shown (a file, a device, the bundled demo);
  /// `nil` for none. Drawn escaped (``TerminalText/escaped(_:)``): a name
  /// comes from whoever made the device or the file.
  public var heading: String?
  /// Whether the heading shows the frame's time (a replay).
  public var showsTime: Bool
  /// A replay's length in seconds: the heading shows progress through it.
  public var duration: Double?
  /// The live page's URL (`--serve`), kept on the screen under the heading.
  public var servedURL: String?

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
  }

  /// The columns left blank at the left of each text line.
  func margin(_ columns: Int) -> Int { columns >= 60 ? 2 : 0 }

  /// The screen for `frame` in a terminal of `columns` × `rows` cells.
  public func render(_ frame: CardFrame, columns: Int, rows: Int) -> String {
    let columns = max(columns, 12)
    let rows = max(rows, 6)
    let top = headingLines(frame, columns: columns, rows: rows)
    let bottom = [statusLine(frame, columns: columns), keysLine(frame, columns: columns)]
    let cardRows = max(rows - top.count - bottom.count, 1)
    var out = TerminalOutput(mode: colorMode)
    out.text("\u{1B}[H")
    for line in top {
      writeLine(line, into: &out)
    }
    drawCard(frame, columns: columns, rows: cardRows, into: &out)
    writeLine(bottom[0], into: &out)
    out.reset()
    out.style(dim: true)
    out.text(bottom[1].text)
    out.reset()
    out.text("\u{1B}[K\u{1B}[J")
    return out.string
  }

  /// A line of text with an optional bold part at its start.
  struct Line {
    var text: String
    var boldPrefix: Int = 0
    var accent: Range<Int>? = nil
  }

  private func writeLine(_ line: Line, into out: inout TerminalOutput) {
    out.reset()
    let chars = Array(line.text)
    var i = 0
    while i < chars.count {
      let bold = i < line.boldPrefix
      let accent = line.accent?.contains(i) ?? false
      out.style(bold: bold, accent: accent)
      out.text(String(chars[i]))
      i += 1
    }
    out.reset()
    out.text("\u{1B}[K\r\n")
  }

  // MARK: Heading, status, keys

  /// The heading's lines: the source with the time and progress on its
  /// right, or under it when both do not fit; the served URL.
  func headingLines(_ frame: CardFrame, columns: Int, rows: Int) -> [Line] {
    let m = margin(columns)
    let pad = String(repeating: " ", count: m)
    let room = columns - m
    var lines: [Line] = []
    let name = heading.map { TerminalText.escaped($0) }
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
    _ frame: CardFrame, columns: Int, rows: Int, into out: inout TerminalOutput
  ) {
    let face = TerminalCardFace(width: configuration.width, height: configuration.height)
    let backdrop = colorMode == .trueColor || colorMode == .palette256
    let canvas = TerminalCanvas(
      frame: frame, face: face, columns: columns, rows: rows, backdrop: backdrop,
      hardShadow: colorMode == .palette16, smooth: colorMode == .trueColor)
    var cells = TerminalCells(canvas: canvas, mode: colorMode, blocks: blocks)
    placeText(frame, face: face, canvas: canvas, cells: &cells)
    for row in 0..<rows {
      out.reset()
      for column in 0..<columns {
        let cell = cells.cells[row * columns + column]
        out.cell(cell)
      }
      out.reset()
      out.text("\u{1B}[K\r\n")
    }
  }

  /// Writes the face's lines into `cells` where they fit (see the type's comment).
  private func placeText(
    _ frame: CardFrame, face: TerminalCardFace, canvas: TerminalCanvas,
    cells: inout TerminalCells
  ) {
    guard frame.extras.shade < 0.5 else { return }
    let lines = face.lines(
      frame.face, frontTitle: frontTitle, frontSubtitle: frontSubtitle,
      backTitle: backTitle, backSubtitle: backSubtitle)
    var used = Set<Int>()
    func onFace(_ column: Int, _ row: Int) -> Bool {
      guard column >= 0, column < canvas.columns, row >= 0, row < canvas.rows else {
        return false
      }
      return canvas.cellIndices(column: column, row: row).allSatisfy {
        canvas.coverage[$0] >= 1 && canvas.materials[$0] == .face
      }
    }
    for line in lines {
      guard let p = canvas.project(frame, line.u, line.v) else { continue }
      let row = Int((p.y / 2).rounded(.down))
      let anchor = Int((p.x / 2).rounded())
      for text in line.variants {
        let chars = Array(TerminalText.escaped(text))
        let start = line.alignment == .left ? anchor : anchor - chars.count
        let span = (start - 1)...(start + chars.count)
        guard span.allSatisfy({ onFace($0, row) && !used.contains(row * canvas.columns + $0) })
        else { continue }
        for (k, ch) in chars.enumerated() {
          cells.write(ch, column: start + k, row: row, bold: line.bold, opacity: line.opacity)
        }
        for c in span { used.insert(row * canvas.columns + c) }
        break
      }
    }
  }
}

/// One cell of the drawing: a character and its two inks.
struct TerminalCell: Equatable {
  var character: Character
  var foreground: TerminalInk
  var background: TerminalInk
  var bold = false
}

/// The canvas's subpixels brought to the terminal's colours and written as
/// cells: each cell the half block, quadrant or space whose two colours come
/// closest to its four subpixels.
struct TerminalCells {
  let columns: Int
  let rows: Int
  let mode: TerminalRenderer.ColorMode
  var cells: [TerminalCell]
  /// The mean colour of each cell's subpixels, for text written over it.
  private var means: [TerminalColor?]

  /// Block Elements by the subpixels they fill: bit 0 top left, 1 top
  /// right, 2 bottom left, 3 bottom right.
  static let glyphs: [Character] = [
    " ", "▘", "▝", "▀", "▖", "▌", "▞", "▛", "▗", "▚", "▐", "▜", "▄", "▙", "▟", "█",
  ]
  /// The subpixels of each mask.
  static let members: [[Int]] = (0..<16).map { mask in (0..<4).filter { mask & (1 << $0) != 0 } }
  /// The masks the Linux console's fonts can draw.
  static let halfBlockMasks: Set<Int> = [0, 3, 5, 10, 12, 15]

  init(canvas: TerminalCanvas, mode: TerminalRenderer.ColorMode, blocks: TerminalRenderer.Blocks) {
    columns = canvas.columns
    rows = canvas.rows
    self.mode = mode
    cells = []
    means = []
    cells.reserveCapacity(columns * rows)
    means.reserveCapacity(columns * rows)
    let allowed: Set<Int>? = blocks == .halfBlocks ? Self.halfBlockMasks : nil
    for row in 0..<rows {
      for column in 0..<columns {
        let idx = canvas.cellIndices(column: column, row: row)
        var inks: [TerminalInk] = []
        var seen: [TerminalColor?] = []
        var sum = TerminalColor(0, 0, 0)
        var n = 0
        for (k, i) in idx.enumerated() {
          let sx = 2 * column + (k & 1)
          let sy = 2 * row + (k >> 1)
          let (ink, rgb) = Self.quantize(
            canvas.colors[i], glow: canvas.glow[i], mode: mode, x: sx, y: sy)
          inks.append(ink)
          seen.append(rgb)
          if let c = canvas.colors[i] {
            sum = TerminalColor(sum.r + c.r, sum.g + c.g, sum.b + c.b)
            n += 1
          }
        }
        means.append(n == 4 ? sum.scaled(0.25) : nil)
        cells.append(Self.encode(inks: inks, colors: seen, mode: mode, allowed: allowed))
      }
    }
  }

  /// A subpixel's ink at this depth, and the colour the terminal shows for it.
  static func quantize(
    _ color: TerminalColor?, glow: Double, mode: TerminalRenderer.ColorMode, x: Int, y: Int
  ) -> (TerminalInk, TerminalColor?) {
    guard let color else { return (.terminalDefault, nil) }
    let c = color.clamped
    switch mode {
    case .trueColor:
      let rgb = TerminalInk.rgb(
        UInt8(c.r.rounded()), UInt8(c.g.rounded()), UInt8(c.b.rounded()))
      return (rgb, c)
    case .palette256:
      // The face without the sheen (screen: c = base + glow·(255 − base)).
      let base =
        glow > 0.01 && glow < 1
        ? TerminalColor(
          (c.r - 255 * glow) / (1 - glow), (c.g - 255 * glow) / (1 - glow),
          (c.b - 255 * glow) / (1 - glow))
        : nil
      let i = TerminalPalette.index256(c, under: base, glow: glow)
      return (.index256(i), TerminalPalette.rgb(ofIndex256: i))
    case .palette16:
      var i = TerminalPalette.ansiHue(c)
      // The sheen's middle in the bright variant of the face's colour.
      if glow > 0.16 && i != 0 { i += 8 }
      if i == 7 && c.luma > 200 { i = 15 }
      return (.ansi(UInt8(i)), TerminalPalette.ansiRGB[i])
    case .none:
      return (.ansi(7), .white)
    }
  }

  /// The cell for four subpixels (top left, top right, bottom left, bottom right).
  static func encode(
    inks: [TerminalInk], colors: [TerminalColor?], mode: TerminalRenderer.ColorMode,
    allowed: Set<Int>?
  ) -> TerminalCell {
    if mode == .none {
      var mask = 0
      for k in 0..<4 where colors[k] != nil { mask |= 1 << k }
      if let allowed, !allowed.contains(mask) {
        // The nearest drawable: each half whole where it is at least half drawn.
        mask = (mask & 3 != 0 ? 3 : 0) | (mask & 12 != 0 ? 12 : 0)
      }
      return TerminalCell(
        character: glyphs[mask], foreground: .terminalDefault, background: .terminalDefault)
    }
    let members = Self.members
    // One ink for the whole cell.
    if inks[1] == inks[0] && inks[2] == inks[0] && inks[3] == inks[0] {
      return TerminalCell(character: " ", foreground: .terminalDefault, background: inks[0])
    }
    // A gentle gradient: the half block, with no search (no quadrant can
    // be chosen over it below 1200, see the rule after the search).
    let top = represent(members[3], inks: inks, colors: colors, mode: mode)
    let bottom = represent(members[12], inks: inks, colors: colors, mode: mode)
    if top.1 + bottom.1 < 1200 {
      var (fg, bg) = (top.0, bottom.0)
      var mask = 3
      if fg.0 == .terminalDefault {
        swap(&fg, &bg)
        mask = 12
      }
      return TerminalCell(character: glyphs[mask], foreground: fg.0, background: bg.0)
    }
    var best:
      (
        mask: Int, error: Double, fg: (TerminalInk, TerminalColor?),
        bg: (TerminalInk, TerminalColor?)
      )?
    var halfBlock: Double = .infinity
    for mask in 1..<8 {
      if let allowed, !allowed.contains(mask), !allowed.contains(15 - mask) { continue }
      let a = members[mask]
      let b = members[15 - mask]
      let (fa, ea) = represent(a, inks: inks, colors: colors, mode: mode)
      let (fb, eb) = represent(b, inks: inks, colors: colors, mode: mode)
      let error = ea + eb
      if mask == 3 { halfBlock = error }
      if best == nil || error < best!.error { best = (mask, error, fa, fb) }
    }
    guard var choice = best else {
      return TerminalCell(character: " ", foreground: .terminalDefault, background: inks[0])
    }
    // Half blocks unless a quadrant is clearly closer: a gentle gradient
    // stays in half blocks, an edge or a corner takes the quadrant.
    if choice.mask != 3, halfBlock.isFinite, choice.error > 0.5 * halfBlock - 600 {
      let a = [0, 1]
      let b = [2, 3]
      choice = (
        3, halfBlock, represent(a, inks: inks, colors: colors, mode: mode).0,
        represent(b, inks: inks, colors: colors, mode: mode).0
      )
    }
    var mask = choice.mask
    var fg = choice.fg
    var bg = choice.bg
    // The terminal's background can only be a background.
    if fg.0 == .terminalDefault {
      swap(&fg, &bg)
      mask = 15 - mask
    }
    if let allowed, !allowed.contains(mask) {
      mask = 15 - mask
      swap(&fg, &bg)
    }
    return TerminalCell(character: glyphs[mask], foreground: fg.0, background: bg.0)
  }

  /// The ink that stands for subpixels `set` and how far the others are
  /// from it (squared RGB distance; the terminal's background is far from
  /// any colour). 24-bit: their mean; else the member closest to the rest.
  static func represent(
    _ set: [Int], inks: [TerminalInk], colors: [TerminalColor?], mode: TerminalRenderer.ColorMode
  ) -> ((TerminalInk, TerminalColor?), Double) {
    let far = 3 * 255.0 * 255.0
    let present = set.filter { colors[$0] != nil }
    if present.count * 2 < set.count || present.isEmpty {
      return ((.terminalDefault, nil), Double(present.count) * far)
    }
    let missing = Double(set.count - present.count) * far
    if mode == .trueColor {
      var s = TerminalColor(0, 0, 0)
      for i in present {
        s = TerminalColor(s.r + colors[i]!.r, s.g + colors[i]!.g, s.b + colors[i]!.b)
      }
      let mean = s.scaled(1 / Double(present.count))
      let error = present.reduce(0) { $0 + colors[$1]!.distanceSquared(to: mean) }
      let ink = TerminalInk.rgb(
        UInt8(mean.r.rounded()), UInt8(mean.g.rounded()), UInt8(mean.b.rounded()))
      return ((ink, mean), error + missing)
    }
    var bestIndex = present[0]
    var bestError = Double.infinity
    for i in present {
      let e = present.reduce(0) { $0 + colors[$1]!.distanceSquared(to: colors[i]!) }
      if e < bestError {
        bestError = e
        bestIndex = i
      }
    }
    return ((inks[bestIndex], colors[bestIndex]), bestError + missing)
  }

  /// Writes `character` over cell (`column`, `row`): white text over the
  /// cell's colour, at `opacity`.
  mutating func write(_ character: Character, column: Int, row: Int, bold: Bool, opacity: Double) {
    let i = row * columns + column
    guard let under = means[i] else { return }
    let text = TerminalColor.mix(under, .white, opacity)
    let (fg, bg): (TerminalInk, TerminalInk)
    switch mode {
    case .trueColor:
      func ink(_ c: TerminalColor) -> TerminalInk {
        let c = c.clamped
        return .rgb(UInt8(c.r.rounded()), UInt8(c.g.rounded()), UInt8(c.b.rounded()))
      }
      (fg, bg) = (ink(text), ink(under))
    case .palette256:
      let under256 = TerminalPalette.index256(under)
      let text256: UInt8 = opacity >= 1 ? 231 : 255
      (fg, bg) = (.index256(text256), .index256(under256))
    case .palette16:
      let hue = TerminalPalette.ansiHue(under)
      (fg, bg) = (.ansi(opacity >= 1 ? 15 : 7), .ansi(UInt8(hue)))
    case .none:
      (fg, bg) = (.terminalDefault, .terminalDefault)
    }
    cells[i] = TerminalCell(character: character, foreground: fg, background: bg, bold: bold)
    if mode == .none {
      // Text on a drawn card: a blank cell either side, so the word stands out.
      for c in [column - 1, column + 1] where c >= 0 && c < columns {
        if cells[row * columns + c].character == "█" {
          cells[row * columns + c].character = " "
        }
      }
    }
  }
}

/// The bytes of a screen, with the SGR state tracked so that each change of
/// colour or style is written once.
struct TerminalOutput {
  let mode: TerminalRenderer.ColorMode
  private(set) var bytes: [UInt8] = []
  private var fg: TerminalInk? = nil
  private var bg: TerminalInk? = nil
  private var bold = false
  private var dim = false
  private var accent = false

  init(mode: TerminalRenderer.ColorMode) {
    self.mode = mode
    bytes.reserveCapacity(1 << 15)
  }

  var string: String { String(decoding: bytes, as: UTF8.self) }

  mutating func text(_ s: String) { bytes.append(contentsOf: s.utf8) }

  private mutating func sgr(_ p: String) {
    bytes.append(contentsOf: "\u{1B}[\(p)m".utf8)
  }

  /// Back to the terminal's colours and no style.
  mutating func reset() {
    guard mode != .none else { return }
    if fg != nil || bg != nil || bold || dim || accent {
      sgr("0")
    }
    fg = nil
    bg = nil
    bold = false
    dim = false
    accent = false
  }

  /// Text styles of the heading and the status lines.
  mutating func style(bold b: Bool = false, dim d: Bool = false, accent a: Bool = false) {
    guard mode != .none else { return }
    if b != bold || d != dim {
      if bold || dim { sgr("22") }
      if b { sgr("1") }
      if d { sgr("2") }
      bold = b
      dim = d
    }
    if a != accent {
      if a {
        let ink: TerminalInk
        switch mode {
        case .trueColor: ink = .rgb(139, 133, 255)
        case .palette256: ink = .index256(105)
        default: ink = .ansi(12)
        }
        sgr(ink.sgr(foreground: true))
        fg = ink
      } else {
        sgr("39")
        fg = nil
      }
      accent = a
    }
  }

  /// One cell of the card.
  mutating func cell(_ c: TerminalCell) {
    guard mode != .none else {
      bytes.append(contentsOf: String(c.character).utf8)
      return
    }
    if c.bold != bold {
      sgr(c.bold ? "1" : "22")
      bold = c.bold
    }
    if c.character != " " && fg != c.foreground {
      sgr(c.foreground.sgr(foreground: true))
      fg = c.foreground
    }
    if bg != c.background {
      sgr(c.background.sgr(foreground: false))
      bg = c.background
    }
    bytes.append(contentsOf: String(c.character).utf8)
  }
}
