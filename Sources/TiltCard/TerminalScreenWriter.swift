/// Escape sequences for a ``TerminalGrid``: the whole screen in place
/// (``full(_:mode:tolerance:)``), or only what differs from the screen the
/// terminal shows (``update(from:to:tolerance:mode:)``), each change of colour
/// or style written once, where it changes from the cell written before, and
/// the cursor moved the cheapest way (a CUP, a CUF, a new line, or the cells
/// in between written over).
///
/// With a `tolerance` (24-bit colour), a cell whose ink is within it of the
/// ink set is written in the ink set, with no SGR: a gentle gradient goes out
/// as a few steps, none more than `tolerance` from the colour it stands for.
struct TerminalScreenWriter {
  let mode: TerminalRenderer.ColorMode
  let tolerance: Int
  private(set) var bytes: [UInt8] = []
  private var fg = TerminalInk.terminalDefault
  private var bg = TerminalInk.terminalDefault
  private var bold = false
  private var dim = false
  /// Where the cursor is (0-based); `nil` where it is not known (at the
  /// start, after the last column, after a row rewritten whole).
  private var cursor: (row: Int, column: Int)?

  init(mode: TerminalRenderer.ColorMode, tolerance: Int = 0) {
    self.mode = mode
    self.tolerance = tolerance
  }

  /// The screen from the top left, every row in full: the form of
  /// ``TerminalRenderer/render(_:columns:rows:)``. With `shown`, what the
  /// terminal then shows (the cells as written, within `tolerance`).
  static func full(
    _ grid: TerminalGrid, mode: TerminalRenderer.ColorMode, tolerance: Int = 0,
    shown: UnsafeMutablePointer<TerminalGrid>? = nil
  ) -> [UInt8] {
    var w = TerminalScreenWriter(mode: mode, tolerance: tolerance)
    w.bytes.reserveCapacity(grid.columns * grid.rows * 24)
    w.text("\u{1B}[H")
    for row in 0..<grid.rows {
      w.reset()
      // The card's rows in full, the text's to its end.
      let end = grid.isText[row] ? grid.end(ofRow: row) : grid.columns
      for column in 0..<end {
        let written = w.put(grid[column, row])
        shown?.pointee[column, row] = written
      }
      w.reset()
      w.text(row + 1 < grid.rows ? "\u{1B}[K\r\n" : "\u{1B}[K\u{1B}[J")
    }
    return w.bytes
  }

  /// The bytes that bring a terminal showing `shown` to `grid`, and `shown`
  /// made what it then shows. A cell that looks like the shown one within
  /// `tolerance` (``TerminalCell/looksLike(_:tolerance:)``) is left as it
  /// is. Nothing when nothing differs. `shown` must be of `grid`'s size.
  ///
  /// `previous` is the grid `shown` was last brought to, when it is of the
  /// same size: a cell as it was there looks like the shown one still (it
  /// was left as looking like it, or written within the tolerance, or
  /// written over with a close ink since), so it is not compared again.
  static func update(
    from shown: inout TerminalGrid, to grid: TerminalGrid, tolerance: Int,
    mode: TerminalRenderer.ColorMode, previous: TerminalGrid? = nil
  ) -> [UInt8] {
    var w = TerminalScreenWriter(mode: mode, tolerance: tolerance)
    let columns = grid.columns
    let previous = previous.flatMap {
      $0.columns == grid.columns && $0.rows == grid.rows ? $0.cells : nil
    }
    var changed: [Int] = []
    changed.reserveCapacity(columns)
    for row in 0..<grid.rows {
      let base = row * columns
      if !grid.exact[row] || !shown.exact[row] {
        // A row whose columns may not be the grid's: rewritten whole when it changed.
        guard
          grid.cells[base..<base + columns] != shown.cells[base..<base + columns]
            || grid.exact[row] != shown.exact[row]
        else { continue }
        w.move(row: row, column: 0, over: grid, shown: &shown)
        w.reset()
        for column in 0..<grid.end(ofRow: row) { _ = w.put(grid.cells[base + column], exact: true) }
        w.reset()
        w.text("\u{1B}[K")
        w.cursor = nil
        for column in 0..<columns { shown.cells[base + column] = grid.cells[base + column] }
        shown.exact[row] = grid.exact[row]
        continue
      }
      // The columns to write, judged first: a cell is judged by what was
      // shown before this row was written (the cells a move writes over are
      // those left of its column, judged already).
      changed.removeAll(keepingCapacity: true)
      grid.cells.withUnsafeBufferPointer { cells in
        shown.cells.withUnsafeBufferPointer { shownCells in
          for column in 0..<columns {
            let i = base &+ column
            let cell = cells[i]
            let before = shownCells[i]
            guard cell != before else { continue }
            if let previous, previous[i] == cell { continue }
            guard !cell.looksLike(before, tolerance: tolerance) else { continue }
            changed.append(column)
          }
        }
      }
      for column in changed {
        w.move(row: row, column: column, over: grid, shown: &shown)
        shown.cells[base + column] = w.put(grid.cells[base + column])
      }
    }
    if !w.bytes.isEmpty { w.reset() }
    return w.bytes
  }

  // MARK: Bytes

  mutating func text(_ s: String) { bytes.append(contentsOf: s.utf8) }

  private mutating func scalar(_ s: Unicode.Scalar) {
    if s.value < 0x80 {
      bytes.append(UInt8(s.value))
    } else {
      if let units = UTF8.encode(s) { bytes.append(contentsOf: units) }
    }
  }

  private static func decimal(_ n: Int, into out: inout [UInt8]) {
    let zero = UInt8(ascii: "0")
    // Up to three digits (a channel, an index, most rows and columns)
    // without the recursion.
    if n < 1000 {
      if n >= 100 { out.append(zero + UInt8(n / 100)) }
      if n >= 10 { out.append(zero + UInt8(n / 10 % 10)) }
      out.append(zero + UInt8(n % 10))
      return
    }
    decimal(n / 10, into: &out)
    out.append(zero + UInt8(n % 10))
  }

  private static func digits(_ n: Int) -> Int { n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : 4 }

  /// Back to the terminal's colours and no style.
  mutating func reset() {
    guard mode != .none else { return }
    if fg != .terminalDefault || bg != .terminalDefault || bold || dim {
      text("\u{1B}[0m")
    }
    fg = .terminalDefault
    bg = .terminalDefault
    bold = false
    dim = false
  }

  /// Writes one cell at the cursor, its colours and style first where they
  /// change (beyond the tolerance, unless `exact`); returns the cell as
  /// written.
  @discardableResult
  mutating func put(_ cell: TerminalCell, exact: Bool = false) -> TerminalCell {
    var cell = cell
    if mode != .none { style(for: &cell, exact: exact) }
    scalar(cell.character)
    if let c = cursor { cursor = (c.row, c.column + 1) }
    return cell
  }

  /// `cell` as it would be written with the colours and style set now, or
  /// `nil` when it needs an SGR.
  private func asSet(_ cell: TerminalCell) -> TerminalCell? {
    guard cell.bold == bold, cell.dim == dim, cell.background.isClose(to: bg, tolerance: tolerance)
    else { return nil }
    var written = cell
    written.background = bg
    if cell.character != " " {
      guard cell.foreground.isClose(to: fg, tolerance: tolerance) else { return nil }
      written.foreground = fg
    }
    return written
  }

  private mutating func style(for cell: inout TerminalCell, exact: Bool) {
    if !exact && tolerance > 0 {
      // An ink within the tolerance of the one set is written in it.
      if cell.background.isClose(to: bg, tolerance: tolerance) { cell.background = bg }
      if cell.character != " " && cell.foreground.isClose(to: fg, tolerance: tolerance) {
        cell.foreground = fg
      }
    }
    if cell.bold != bold || cell.dim != dim {
      if (bold && !cell.bold) || (dim && !cell.dim) {
        param("22")
        bold = false
        dim = false
      }
      if cell.bold && !bold { param("1") }
      if cell.dim && !dim { param("2") }
      bold = cell.bold
      dim = cell.dim
    }
    if cell.character != " " && fg != cell.foreground {
      ink(cell.foreground, foreground: true)
      fg = cell.foreground
    }
    if bg != cell.background {
      ink(cell.background, foreground: false)
      bg = cell.background
    }
  }

  /// One SGR sequence for each change (a terminal, or a reader of the
  /// bytes, may take them one code at a time): `ESC [ p m`.
  private mutating func param(_ p: String) {
    bytes.append(contentsOf: [0x1B, UInt8(ascii: "[")])
    bytes.append(contentsOf: p.utf8)
    bytes.append(UInt8(ascii: "m"))
  }

  /// `38;K` or `48;K`: an extended colour of kind `kind` (2 RGB, 5 indexed).
  @inline(__always)
  private mutating func extended(_ digit: UInt8, _ kind: UInt8) {
    bytes.append(digit)
    bytes.append(UInt8(ascii: "8"))
    bytes.append(UInt8(ascii: ";"))
    bytes.append(kind)
  }

  private mutating func ink(_ ink: TerminalInk, foreground: Bool) {
    bytes.append(0x1B)
    bytes.append(UInt8(ascii: "["))
    let digit = UInt8(ascii: foreground ? "3" : "4")
    switch ink.kind {
    case .terminalDefault:
      bytes.append(digit)
      bytes.append(UInt8(ascii: "9"))
    case .rgb(let r, let g, let b):
      extended(digit, UInt8(ascii: "2"))
      bytes.append(UInt8(ascii: ";"))
      Self.decimal(Int(r), into: &bytes)
      bytes.append(UInt8(ascii: ";"))
      Self.decimal(Int(g), into: &bytes)
      bytes.append(UInt8(ascii: ";"))
      Self.decimal(Int(b), into: &bytes)
    case .index256(let i):
      extended(digit, UInt8(ascii: "5"))
      bytes.append(UInt8(ascii: ";"))
      Self.decimal(Int(i), into: &bytes)
    case .ansi(let i):
      let base = i < 8 ? (foreground ? 30 : 40) : (foreground ? 90 : 100)
      Self.decimal(base + Int(i % 8), into: &bytes)
    }
    bytes.append(UInt8(ascii: "m"))
  }

  // MARK: The cursor

  /// Moves the cursor to (`row`, `column`) by the shortest of: a CUP; on
  /// the same row a CUF, or writing over the cells in between (of `grid`,
  /// when their colours are the ones set); a carriage return and line feed
  /// to the start of the next row.
  mutating func move(
    row: Int, column: Int, over grid: TerminalGrid, shown: inout TerminalGrid
  ) {
    defer { cursor = (row, column) }
    let columns = grid.columns
    let cup =
      row == 0 && column == 0
      ? 3
      : column == 0 ? 3 + Self.digits(row + 1) : 4 + Self.digits(row + 1) + Self.digits(column + 1)
    if let at = cursor, at.column < columns {
      if at.row == row && at.column == column { return }
      if at.row == row && column > at.column {
        let n = column - at.column
        let cuf = n == 1 ? 3 : 3 + Self.digits(n)
        // Writing the cells over: only where no SGR is needed, and shorter.
        var over = 0
        var k = at.column
        while k < column && over < min(cuf, cup) {
          guard asSet(grid.cells[row * columns + k]) != nil else {
            over = .max
            break
          }
          over += UTF8.width(grid.cells[row * columns + k].character)
          k += 1
        }
        if over < min(cuf, cup) {
          for k in at.column..<column {
            if let written = asSet(grid.cells[row * columns + k]) {
              scalar(written.character)
              shown.cells[row * columns + k] = written
            }
          }
          return
        }
        if cuf <= cup {
          bytes.append(contentsOf: [0x1B, UInt8(ascii: "[")])
          if n > 1 { Self.decimal(n, into: &bytes) }
          bytes.append(UInt8(ascii: "C"))
          return
        }
      }
      if row == at.row + 1 && column == 0 && 2 < cup {
        bytes.append(contentsOf: [0x0D, 0x0A])
        return
      }
      if row == at.row && column == 0 {
        bytes.append(0x0D)
        return
      }
    }
    bytes.append(contentsOf: [0x1B, UInt8(ascii: "[")])
    if row > 0 || column > 0 { Self.decimal(row + 1, into: &bytes) }
    if column > 0 {
      bytes.append(UInt8(ascii: ";"))
      Self.decimal(column + 1, into: &bytes)
    }
    bytes.append(UInt8(ascii: "H"))
  }
}
