/// One cell of the screen: a character, its two inks and its style.
struct TerminalCell: Equatable {
  var character: Unicode.Scalar
  var foreground: TerminalInk
  var background: TerminalInk
  var bold = false
  var dim = false

  /// The terminal's own background, nothing on it.
  static let blank = TerminalCell(
    character: " ", foreground: .terminalDefault, background: .terminalDefault)

  /// Whether the cell looks like `other` within `tolerance` per channel of a
  /// 24-bit ink (0: the same inks). A space's foreground does not show. Two
  /// cells of spaces and Block Elements look alike where their four
  /// quarters do (a space on one colour and `▀` in that colour on it are the
  /// same to the eye).
  @inline(__always)
  func looksLike(_ other: TerminalCell, tolerance: Int) -> Bool {
    guard bold == other.bold, dim == other.dim else { return false }
    if character == other.character {
      return background.isClose(to: other.background, tolerance: tolerance)
        && (character == " " || foreground.isClose(to: other.foreground, tolerance: tolerance))
    }
    guard let mine = Self.quarters(character), let theirs = Self.quarters(other.character) else {
      return false
    }
    for k in 0..<4 {
      let a = mine & (1 << k) != 0 ? foreground : background
      let b = theirs & (1 << k) != 0 ? other.foreground : other.background
      guard a.isClose(to: b, tolerance: tolerance) else { return false }
    }
    return true
  }

  /// The quarters a space or a Block Element fills with its foreground (bit
  /// 0 top left, 1 top right, 2 bottom left, 3 bottom right); `nil` for any
  /// other character.
  static func quarters(_ character: Unicode.Scalar) -> Int? {
    if character == " " { return 0 }
    let v = character.value
    guard v >= 0x2580, v <= 0x259F else { return nil }
    let mask = blockQuarters[Int(v - 0x2580)]
    return mask < 0 ? nil : mask
  }

  /// Block Elements (U+2580…259F) by the quarters they fill
  /// (``TerminalCells/glyphs``); −1 for the eighths and the shades.
  private static let blockQuarters: [Int] = {
    var table = [Int](repeating: -1, count: 32)
    for (mask, glyph) in TerminalCells.glyphs.enumerated() where glyph != " " {
      table[Int(glyph.value - 0x2580)] = mask
    }
    return table
  }()

  /// Whether the terminal is sure to draw `character` one column wide, as the
  /// grid counts it: ASCII, Latin-1 and the rest to U+02FF, the dashes,
  /// bullets and ellipsis of General Punctuation, the minus sign, the box
  /// drawing and block elements.
  static func isNarrow(_ character: Unicode.Scalar) -> Bool {
    switch character.value {
    case 0x20...0x7E, 0xA0...0x2FF, 0x2010...0x2027, 0x2212, 0x2500...0x259F: return true
    default: return false
    }
  }
}

/// A whole screen as cells, row by row: what the view shows for one frame,
/// before it is turned into bytes (``TerminalScreenWriter``).
struct TerminalGrid: Equatable {
  let columns: Int
  let rows: Int
  var cells: [TerminalCell]
  /// Whether every character of each row is one column wide
  /// (``TerminalCell/isNarrow(_:)``), so that the terminal's columns are the
  /// grid's and a cell can be rewritten on its own; a row that is not is
  /// rewritten whole.
  var exact: [Bool]
  /// Whether each row is a line of text (the heading, the status, the keys),
  /// written to its last character, or the card's, written in full.
  var isText: [Bool]

  /// `columns` × `rows` blank cells.
  init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
    cells = Array(repeating: .blank, count: columns * rows)
    exact = Array(repeating: true, count: rows)
    isText = Array(repeating: false, count: rows)
  }

  subscript(column: Int, row: Int) -> TerminalCell {
    get { cells[row * columns + column] }
    set { cells[row * columns + column] = newValue }
  }

  /// Writes `text` at the start of `row`, cut at the screen's width, with
  /// the first `boldPrefix` characters bold, those in `accent` in `accentInk`
  /// and all of them `dim` where asked.
  mutating func setText(
    _ text: String, row: Int, boldPrefix: Int = 0, accent: Range<Int>? = nil,
    accentInk: TerminalInk = .terminalDefault, dim: Bool = false, styled: Bool = true
  ) {
    guard row >= 0, row < rows else { return }
    isText[row] = true
    // A scalar a cell: a combining mark takes none on the terminal, so its
    // row is not exact and is written whole, in order.
    for (k, ch) in text.unicodeScalars.enumerated() {
      guard k < columns else { break }
      if !TerminalCell.isNarrow(ch) { exact[row] = false }
      let inAccent = styled && (accent?.contains(k) ?? false)
      self[k, row] = TerminalCell(
        character: ch, foreground: inAccent ? accentInk : .terminalDefault,
        background: .terminalDefault, bold: styled && k < boldPrefix, dim: styled && dim)
    }
  }

  /// The column after the last cell of `row` that is not blank; 0 for none.
  func end(ofRow row: Int) -> Int {
    var c = columns
    while c > 0 && cells[row * columns + c - 1] == .blank { c -= 1 }
    return c
  }
}
