/// What a terminal shows, as the view last sent it, and the bytes that
/// bring it to the next frame: only the cells that look different
/// (``TerminalScreenWriter``), nothing when none does.
///
/// In 24-bit colour what the terminal shows stays within
/// ``trueColorTolerance`` of the frame drawn whole: a cell within
/// ``sendingTolerance`` of what is shown is left as it is, so a sheen or a
/// light that moves by a hair does not resend the card (a cell that is sent
/// is sent exactly), and the rest is the cells' own slack (``TerminalCells``). The screen is redrawn whole
/// at the first frame, at a new size, and after ``invalidate()`` (the
/// terminal was resized, or may not show what was sent: Ctrl-L).
///
/// Not thread-safe (not `Sendable`): one screen, drawn from one thread.
public struct TerminalScreen {
  /// How far a 24-bit channel of what the terminal shows may be from the
  /// frame drawn whole (of 255): below what the eye sees on a gradient.
  public static let trueColorTolerance = 3

  /// How far a 24-bit channel may be from the shown one before the cell is
  /// sent again: the tolerance less the step a cell may stand for while its
  /// subpixels move by less than half of one.
  static let sendingTolerance = trueColorTolerance - 1

  private var shown: TerminalGrid?
  /// The grid the screen was last brought to, and the tolerance it was sent with.
  private var drawn: (grid: TerminalGrid, tolerance: Int)?
  private let cache = TerminalRasterCache()

  public init() {}

  /// Forgets what the terminal shows: the next update redraws it whole.
  public mutating func invalidate() {
    shown = nil
    drawn = nil
  }

  /// The bytes that bring the terminal to `frame` drawn by `renderer` in
  /// `columns` × `rows` cells; empty when nothing visible changed.
  public mutating func update(
    _ frame: CardFrame, renderer: TerminalRenderer, columns: Int, rows: Int
  ) -> [UInt8] {
    let grid = renderer.grid(frame, columns: columns, rows: rows, cache: cache)
    let mode = renderer.colorMode
    let tolerance = mode == .trueColor ? Self.sendingTolerance : 0
    // Taken out while it is brought up to date, so that its cells are not copied.
    if var shown = shown.take(), shown.columns == grid.columns, shown.rows == grid.rows {
      let bytes = TerminalScreenWriter.update(
        from: &shown, to: grid, tolerance: tolerance, mode: mode,
        previous: drawn?.tolerance == tolerance ? drawn?.grid : nil)
      self.shown = shown
      drawn = (grid, tolerance)
      return bytes
    }
    // Whole: every row written over from the top left, the rest cleared.
    var written = grid
    let bytes = TerminalScreenWriter.full(
      grid, mode: mode, tolerance: tolerance, shown: &written)
    shown = written
    drawn = (grid, tolerance)
    return bytes
  }
}
