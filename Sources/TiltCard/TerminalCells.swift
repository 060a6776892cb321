import Foundation

/// The canvas's subpixels brought to the terminal's colours and written as
/// cells: each cell the half block, quadrant or space whose two colours come
/// closest to its four subpixels.
struct TerminalCells {
  let columns: Int
  let rows: Int
  let mode: TerminalRenderer.ColorMode
  let palette: TerminalPaletteTable
  var cells: [TerminalCell]
  /// Whether each row's characters are all one column wide (text written
  /// over the card may not be).
  var exact: [Bool]
  /// The canvas's subpixels, for the colour under text written over a cell.
  private let subpixels: [TerminalColor?]
  private let subWidth: Int
  /// Where these cells are kept for the next frame (see ``write(_:column:row:bold:opacity:)``).
  private let cache: TerminalRasterCache

  /// Block Elements by the subpixels they fill: bit 0 top left, 1 top
  /// right, 2 bottom left, 3 bottom right.
  static let glyphs: [Unicode.Scalar] = [
    " ", "▘", "▝", "▀", "▖", "▌", "▞", "▛", "▗", "▚", "▐", "▜", "▄", "▙", "▟", "█",
  ]
  /// The subpixels of each mask.
  static let members: [[Int]] = (0..<16).map { mask in (0..<4).filter { mask & (1 << $0) != 0 } }
  /// The masks the Linux console's fonts can draw.
  static let halfBlockMasks: Set<Int> = [0, 3, 5, 10, 12, 15]

  init(
    canvas: TerminalCanvas, mode: TerminalRenderer.ColorMode, blocks: TerminalRenderer.Blocks,
    cache: TerminalRasterCache = TerminalRasterCache()
  ) {
    columns = canvas.columns
    rows = canvas.rows
    self.mode = mode
    let palette = cache.palette
    self.palette = palette
    let count = columns * rows
    exact = Array(repeating: true, count: rows)
    let allowed: Set<Int>? = blocks == .halfBlocks ? Self.halfBlockMasks : nil
    // The cells of the frames before and the subpixels each was made of,
    // where those were of the same size and depth.
    let key = TerminalRasterCache.CellsKey(
      columns: columns, rows: rows, mode: mode, halfBlocks: blocks == .halfBlocks)
    var made = cache.previous?.key == key ? cache.previous : nil
    cache.previous = nil
    let hasBefore = made != nil
    var cells = made?.cells ?? [TerminalCell](repeating: .blank, count: count)
    var madeColors = made?.colors ?? [TerminalColor?](repeating: nil, count: 4 * count)
    var madeGlow = made?.glow ?? [Double](repeating: 0, count: 4 * count)
    // Whether each cell may stand while its subpixels move within the slack.
    var gentle = made?.gentle ?? [Bool](repeating: false, count: count)
    // Outside the box this frame drew and the one the frame before drew,
    // the subpixels were the plain backdrop both times: their cells stand.
    let box = made.map { TerminalCanvas.union(canvas.drawnBox, $0.drawnBox) }
    let overwritten = made?.overwritten ?? []
    made = nil
    // The cells as made, without the text written over them since.
    for (i, cell) in overwritten.reversed() { cells[i] = cell }
    let (columns, rows) = (columns, rows)
    let (columnsToMake, rowsToMake) =
      box.map { ($0.x0 / 2..<($0.x1 + 1) / 2, $0.y0 / 2..<($0.y1 + 1) / 2) }
      ?? (0..<columns, 0..<rows)
    let subWidth = canvas.subWidth
    let slack = Self.slack(mode)
    // The ink of the last subpixel quantised, by its colour: neighbours are
    // often alike (the backdrop, a flat band), and then need no search.
    var last: (TerminalColor, Double, TerminalInk, TerminalColor?)?
    canvas.colors.withUnsafeBufferPointer { colors in
      canvas.glow.withUnsafeBufferPointer { glow in
        madeColors.withUnsafeMutableBufferPointer { madeColors in
          madeGlow.withUnsafeMutableBufferPointer { madeGlow in
            cells.withUnsafeMutableBufferPointer { cells in
              gentle.withUnsafeMutableBufferPointer { gentle in
                // Each cell's four inks and the colours they show, overwritten.
                let inks = UnsafeMutablePointer<TerminalInk>.allocate(capacity: 4)
                let seen = UnsafeMutablePointer<TerminalColor?>.allocate(capacity: 4)
                inks.initialize(repeating: .terminalDefault, count: 4)
                seen.initialize(repeating: nil, count: 4)
                defer {
                  inks.deallocate()
                  seen.deinitialize(count: 4)
                  seen.deallocate()
                }
                @inline(__always)
                func near(_ i: Int, _ slack: (channel: Double, glow: Double)) -> Bool {
                  // An infinite slack lets any sheen by (there is no NaN).
                  guard slack.glow == .infinity || abs(glow[i] - madeGlow[i]) <= slack.glow else {
                    return false
                  }
                  switch (colors[i], madeColors[i]) {
                  case (nil, nil): return true
                  case (let a?, let b?):
                    return abs(a.r - b.r) <= slack.channel && abs(a.g - b.g) <= slack.channel
                      && abs(a.b - b.b) <= slack.channel
                  default: return false
                  }
                }
                for row in rowsToMake {
                  for column in columnsToMake {
                    let c = row &* columns &+ column
                    let top = 2 &* row &* subWidth &+ 2 &* column
                    let bottom = top &+ subWidth
                    // A cell whose subpixels are those it was made of is that
                    // cell still; a gentle one while they are within the slack.
                    let within = gentle[c] ? slack : (0, 0)
                    if hasBefore && near(top, within) && near(top &+ 1, within)
                      && near(bottom, within) && near(bottom &+ 1, within)
                    {
                      continue
                    }
                    for i in 0..<4 {
                      let i = (i < 2 ? top : bottom) &+ (i & 1)
                      madeColors[i] = colors[i]
                      madeGlow[i] = glow[i]
                    }
                    if mode == .trueColor, let a = colors[top], let b = colors[top &+ 1],
                      let d = colors[bottom], let e = colors[bottom &+ 1],
                      let cell = Self.gentleTrueColor(a, b, d, e)
                    {
                      cells[c] = cell
                      gentle[c] = true
                      continue
                    }
                    gentle[c] = false
                    for k in 0..<4 {
                      let i = (k < 2 ? top : bottom) &+ (k & 1)
                      let color = colors[i]
                      if let l = last, l.0 == color, l.1 == glow[i] {
                        (inks[k], seen[k]) = (l.2, l.3)
                      } else {
                        let (ink, rgb) = Self.quantize(
                          color, glow: glow[i], mode: mode, palette: palette)
                        inks[k] = ink
                        seen[k] = rgb
                        if let color { last = (color, glow[i], ink, rgb) }
                      }
                    }
                    cells[c] = Self.encode(inks: inks, colors: seen, mode: mode, allowed: allowed)
                  }
                }
              }
            }
          }
        }
      }
    }
    self.cells = cells
    self.subpixels = canvas.colors
    self.subWidth = subWidth
    self.cache = cache
    cache.previous = TerminalRasterCache.PreviousCells(
      key: key, colors: madeColors, glow: madeGlow, gentle: gentle, cells: cells,
      drawnBox: canvas.drawnBox)
  }

  /// How far a subpixel may move, in each channel (of 255) and in the
  /// sheen, from the one a cell was made of before the cell is made again.
  /// In 24-bit, half a step for a cell of one colour or a gentle gradient
  /// (``gentleTrueColor(_:_:_:_:)``): its quarters then move by one step at
  /// most (``TerminalScreen/trueColorTolerance`` counts it), and the card's
  /// interior, which moves by hundredths of a step from one frame to the
  /// next, is not shaded again. Nothing for an edge, where a move can change
  /// the block, nor in 256 and 16 colours and without colour, where any move
  /// can cross a border between two inks.
  static func slack(_ mode: TerminalRenderer.ColorMode) -> (channel: Double, glow: Double) {
    switch mode {
    case .trueColor: (0.5, .infinity)
    default: (0, 0)
    }
  }

  /// The mean colour of cell (`column`, `row`)'s subpixels; `nil` unless all four are drawn.
  private func mean(column: Int, row: Int) -> TerminalColor? {
    let top = 2 * row * subWidth + 2 * column
    var sum = TerminalColor(0, 0, 0)
    for i in [top, top + 1, top + subWidth, top + subWidth + 1] {
      guard let c = subpixels[i] else { return nil }
      sum = TerminalColor(sum.r + c.r, sum.g + c.g, sum.b + c.b)
    }
    return sum.scaled(0.25)
  }

  /// In 24-bit colour, the cell of four drawn subpixels (top left, top
  /// right, bottom left, bottom right) when it is one colour or a gentle
  /// gradient: what ``quantize(_:glow:mode:palette:)`` and
  /// ``encode(inks:colors:mode:allowed:)`` make of them, without their
  /// buffers; `nil` for any other cell.
  @inline(__always)
  static func gentleTrueColor(
    _ a: TerminalColor, _ b: TerminalColor, _ c: TerminalColor, _ d: TerminalColor
  ) -> TerminalCell? {
    // What `UInt8(x + 0.5)` keeps of a channel (x is 0…255), as a double:
    // compared as doubles, converted only for the inks written.
    @inline(__always) func step(_ x: Double) -> Double { (x + 0.5).rounded(.down) }
    @inline(__always) func same(_ x: TerminalColor, _ r: Double, _ g: Double, _ b: Double) -> Bool {
      step(x.r) == r && step(x.g) == g && step(x.b) == b
    }
    @inline(__always) func ink(_ x: TerminalColor) -> TerminalInk {
      .rgb(UInt8(step(x.r)), UInt8(step(x.g)), UInt8(step(x.b)))
    }
    let (a, b, c, d) = (a.clamped, b.clamped, c.clamped, d.clamped)
    let (r, g, bl) = (step(a.r), step(a.g), step(a.b))
    if same(b, r, g, bl) && same(c, r, g, bl) && same(d, r, g, bl) {
      return TerminalCell(character: " ", foreground: .terminalDefault, background: ink(a))
    }
    // represent(_:inks:colors:mode:) of each half: the mean of its two, and their distance from it.
    let top = TerminalColor(a.r + b.r, a.g + b.g, a.b + b.b).scaled(0.5)
    let bottom = TerminalColor(c.r + d.r, c.g + d.g, c.b + d.b).scaled(0.5)
    let error =
      (a.distanceSquared(to: top) + b.distanceSquared(to: top))
      + (c.distanceSquared(to: bottom) + d.distanceSquared(to: bottom))
    guard error < 1200 else { return nil }
    return TerminalCell(character: glyphs[3], foreground: ink(top), background: ink(bottom))
  }

  /// A subpixel's ink at this depth, and the colour the terminal shows for it.
  @inline(__always)
  static func quantize(
    _ color: TerminalColor?, glow: Double, mode: TerminalRenderer.ColorMode,
    palette: TerminalPaletteTable = TerminalPaletteTable()
  ) -> (TerminalInk, TerminalColor?) {
    guard let color else { return (.terminalDefault, nil) }
    let c = color.clamped
    switch mode {
    case .trueColor:
      // Rounded to nearest (c is 0…255).
      let rgb = TerminalInk.rgb(UInt8(c.r + 0.5), UInt8(c.g + 0.5), UInt8(c.b + 0.5))
      return (rgb, c)
    case .palette256:
      // The face without the sheen (screen: c = base + glow·(255 − base)).
      var base: TerminalColor?
      if glow > 0.01 && glow < 1 {
        let (lift, gain) = (255 * glow, 1 / (1 - glow))
        base = TerminalColor((c.r - lift) * gain, (c.g - lift) * gain, (c.b - lift) * gain)
      }
      let i = palette.index256(c, under: base, glow: glow)
      return (.index256(i), palette.colors[Int(i)])
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
    inks: UnsafeMutablePointer<TerminalInk>, colors: UnsafeMutablePointer<TerminalColor?>,
    mode: TerminalRenderer.ColorMode,
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
    // One ink for the whole cell.
    if inks[1] == inks[0] && inks[2] == inks[0] && inks[3] == inks[0] {
      return TerminalCell(character: " ", foreground: .terminalDefault, background: inks[0])
    }
    // A gentle gradient: the half block, with no search (no quadrant can
    // be chosen over it below 1200, see the rule after the search).
    let top = represent(3, inks: inks, colors: colors, mode: mode)
    let bottom = represent(12, inks: inks, colors: colors, mode: mode)
    if top.1 + bottom.1 < 1200 {
      var (fg, bg) = (top.0, bottom.0)
      var mask = 3
      if fg == .terminalDefault {
        swap(&fg, &bg)
        mask = 12
      }
      return TerminalCell(character: glyphs[mask], foreground: fg, background: bg)
    }
    var best: (mask: Int, error: Double, fg: TerminalInk, bg: TerminalInk)?
    var halfBlock: Double = .infinity
    for mask in 1..<8 {
      if let allowed, !allowed.contains(mask), !allowed.contains(15 - mask) { continue }
      let (fa, ea) = mask == 3 ? top : represent(mask, inks: inks, colors: colors, mode: mode)
      let (fb, eb) =
        mask == 3 ? bottom : represent(15 - mask, inks: inks, colors: colors, mode: mode)
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
      choice = (3, halfBlock, top.0, bottom.0)
    }
    var mask = choice.mask
    var fg = choice.fg
    var bg = choice.bg
    // The terminal's background can only be a background.
    if fg == .terminalDefault {
      swap(&fg, &bg)
      mask = 15 - mask
    }
    if let allowed, !allowed.contains(mask) {
      mask = 15 - mask
      swap(&fg, &bg)
    }
    return TerminalCell(character: glyphs[mask], foreground: fg, background: bg)
  }

  /// The ink that stands for the subpixels of `mask` and how far the
  /// others are from it (squared RGB distance; the terminal's background is
  /// far from any colour). 24-bit: their mean; else the member closest to
  /// the rest.
  static func represent(
    _ mask: Int, inks: UnsafeMutablePointer<TerminalInk>,
    colors: UnsafeMutablePointer<TerminalColor?>, mode: TerminalRenderer.ColorMode
  ) -> (TerminalInk, Double) {
    let far = 3 * 255.0 * 255.0
    var size = 0
    var present = 0
    for k in 0..<4 where mask & (1 << k) != 0 {
      size += 1
      if colors[k] != nil { present += 1 }
    }
    if present * 2 < size || present == 0 {
      return (.terminalDefault, Double(present) * far)
    }
    let missing = Double(size - present) * far
    if mode == .trueColor {
      var s = TerminalColor(0, 0, 0)
      for k in 0..<4 where mask & (1 << k) != 0 {
        guard let c = colors[k] else { continue }
        s = TerminalColor(s.r + c.r, s.g + c.g, s.b + c.b)
      }
      let mean = s.scaled(1 / Double(present))
      var error = 0.0
      for k in 0..<4 where mask & (1 << k) != 0 {
        guard let c = colors[k] else { continue }
        error += c.distanceSquared(to: mean)
      }
      // Rounded to nearest (the colours are 0…255).
      let ink = TerminalInk.rgb(UInt8(mean.r + 0.5), UInt8(mean.g + 0.5), UInt8(mean.b + 0.5))
      return (ink, error + missing)
    }
    var bestIndex = -1
    var bestError = Double.infinity
    for i in 0..<4 where mask & (1 << i) != 0 {
      guard let ci = colors[i] else { continue }
      var e = 0.0
      for k in 0..<4 where mask & (1 << k) != 0 {
        guard let c = colors[k] else { continue }
        e += c.distanceSquared(to: ci)
      }
      if e < bestError {
        bestError = e
        bestIndex = i
      }
    }
    return (inks[bestIndex], bestError + missing)
  }

  /// Writes `character` over cell (`column`, `row`): white text over the
  /// cell's colour, at `opacity`.
  mutating func write(
    _ character: Unicode.Scalar, column: Int, row: Int, bold: Bool, opacity: Double
  ) {
    let i = row * columns + column
    guard let under = mean(column: column, row: row) else { return }
    if !TerminalCell.isNarrow(character) { exact[row] = false }
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
      let under256 = palette.index256(under)
      let text256: UInt8 = opacity >= 1 ? 231 : 255
      (fg, bg) = (.index256(text256), .index256(under256))
    case .palette16:
      let hue = TerminalPalette.ansiHue(under)
      (fg, bg) = (.ansi(opacity >= 1 ? 15 : 7), .ansi(UInt8(hue)))
    case .none:
      (fg, bg) = (.terminalDefault, .terminalDefault)
    }
    overwrite(
      i,
      with: TerminalCell(
        character: character, foreground: character == " " ? .terminalDefault : fg,
        background: bg, bold: bold))
    if mode == .none {
      // Text on a drawn card: a blank cell either side, so the word stands out.
      for c in [column - 1, column + 1] where c >= 0 && c < columns {
        var cell = cells[row * columns + c]
        if cell.character == "█" {
          cell.character = " "
          overwrite(row * columns + c, with: cell)
        }
      }
    }
  }

  /// Sets cell `i`, noting the cell it was in the cache's cells for the
  /// next frame. The cache shares this storage: it lets go of it for the
  /// write (so the write copies no cells) and takes it back after.
  private mutating func overwrite(_ i: Int, with cell: TerminalCell) {
    func start(_ cells: [TerminalCell]) -> UnsafePointer<TerminalCell>? {
      cells.withUnsafeBufferPointer { $0.baseAddress }
    }
    let keeps = cache.previous.map { start($0.cells) == start(cells) } ?? false
    if keeps {
      cache.previous?.cells = []
      cache.previous?.overwritten.append((i, cells[i]))
    }
    cells[i] = cell
    if keeps { cache.previous?.cells = cells }
  }
}
