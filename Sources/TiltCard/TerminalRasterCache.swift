/// What the terminal drawing keeps from one frame to the next, so that a
/// frame neither allocates nor derives again what the one before had: the
/// palette's table, the backdrop of the screen's size, the canvas's buffers.
///
/// Not thread-safe: one per screen, used from one thread.
final class TerminalRasterCache {
  let palette = TerminalPaletteTable()
  private var backdrop: (width: Int, height: Int, colors: [TerminalColor])?
  var colors: [TerminalColor?] = []
  var coverage: [Double] = []
  var materials: [TerminalCardFace.Material?] = []
  var glow: [Double] = []
  /// The shadow's two layers and the buffer of their blur's passes.
  var tight: [Double] = []
  var wide: [Double] = []
  var scratch: [Double] = []

  /// What cells are made of: their size, depth and blocks.
  struct CellsKey: Equatable {
    var columns: Int
    var rows: Int
    var mode: TerminalRenderer.ColorMode
    var halfBlocks: Bool
  }

  /// The frame before's subpixels and the cells made of them (before any
  /// text was written over), for ``TerminalCells`` to take again where the
  /// subpixels are the same.
  struct PreviousCells {
    var key: CellsKey
    var colors: [TerminalColor?]
    var glow: [Double]
    var gentle: [Bool]
    var cells: [TerminalCell]
  }
  var previous: PreviousCells?

  /// The backdrop's colour at each subpixel of a `width` × `height` canvas,
  /// made by `make` for a new size.
  func backdrop(width: Int, height: Int, make: () -> [TerminalColor]) -> [TerminalColor] {
    if let b = backdrop, b.width == width, b.height == height { return b.colors }
    let colors = make()
    backdrop = (width, height, colors)
    return colors
  }

  /// `buffer`'s storage, taken from it, holding `count` × `value`.
  static func reuse<T>(_ buffer: inout [T], _ value: T, count: Int) -> [T] {
    var out: [T] = []
    swap(&buffer, &out)
    out.removeAll(keepingCapacity: true)
    out.append(contentsOf: repeatElement(value, count: count))
    return out
  }

  /// Takes back the buffers of a canvas that is done with (its colours and
  /// sheen are ``previous``'s, and those before them the next frame's).
  func recycle(_ canvas: consuming TerminalCanvas) {
    coverage = canvas.coverage
    materials = canvas.materials
  }
}
