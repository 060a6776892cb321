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
  /// The layers' grids where they are kept coarse.
  var tightCells: [Float] = []
  var wideCells: [Float] = []
  /// Where the canvas last drew into each of its buffers, by the buffer's
  /// storage, newest first: outside that box the buffer is plain (see
  /// ``TerminalCanvas/drawnBox``). Every buffer comes back to be drawn
  /// into by the next canvas (``recycle(_:)``); a record older than that may
  /// name storage freed since, and is dropped. A buffer handed back must be
  /// the storage the canvas drew, unchanged.
  private var drawn: [Drawn] = []
  /// The canvases drawn with this cache.
  private var canvases = 0

  /// A buffer's storage, its canvas's size and backdrop, and the box drawn in it.
  private struct Drawn {
    var storage: UnsafeRawPointer
    var canvas: Int
    var width: Int
    var height: Int
    var backdrop: Bool
    var box: TerminalCanvas.Window
  }

  /// Starts a canvas: records of those before the one before it go.
  func startCanvas() {
    canvases += 1
    drawn.removeAll { $0.canvas < canvases - 1 }
  }

  /// What cells are made of: their size, depth and blocks.
  struct CellsKey: Equatable {
    var columns: Int
    var rows: Int
    var mode: TerminalRenderer.ColorMode
    var halfBlocks: Bool
  }

  /// The cells of the frames before (before any text was written over),
  /// the subpixels each was last made of and whether it is gentle, for
  /// ``TerminalCells`` to take a cell again while its subpixels stay.
  struct PreviousCells {
    var key: CellsKey
    var colors: [TerminalColor?]
    var glow: [Double]
    var gentle: [Bool]
    var cells: [TerminalCell]
    /// The subpixels the canvas of those cells drew (``TerminalCanvas/drawnBox``).
    var drawnBox: TerminalCanvas.Window
    /// The cells that text written after them overwrote in `cells`, by
    /// index, in the order overwritten: put back in the reverse order,
    /// they leave `cells` as made (the text shares their storage instead of
    /// copying all of them each frame).
    var overwritten: [(Int, TerminalCell)] = []
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

  /// The box outside which `buffer` is plain for a `width` × `height`
  /// canvas with or without a backdrop; `nil` where that is not known (a
  /// buffer no canvas of that kind drew last).
  func drawnBox<T>(
    of buffer: [T], width: Int, height: Int, backdrop: Bool
  ) -> TerminalCanvas.Window? {
    guard buffer.count == width * height, let storage = Self.storage(buffer),
      let last = drawn.first(where: { $0.storage == storage })
    else { return nil }
    guard last.width == width, last.height == height, last.backdrop == backdrop else { return nil }
    return last.box
  }

  /// Notes that `buffer` is plain outside `box`.
  func noteDrawn<T>(
    _ buffer: [T], width: Int, height: Int, backdrop: Bool, box: TerminalCanvas.Window
  ) {
    guard let storage = Self.storage(buffer) else { return }
    drawn.removeAll { $0.storage == storage }
    drawn.insert(
      Drawn(
        storage: storage, canvas: canvases, width: width, height: height, backdrop: backdrop,
        box: box), at: 0)
  }

  /// The address of `buffer`'s elements: which storage it is, not to be read through.
  private static func storage<T>(_ buffer: [T]) -> UnsafeRawPointer? {
    buffer.withUnsafeBufferPointer { $0.baseAddress.map { UnsafeRawPointer($0) } }
  }

  /// Takes back the buffers of a canvas that is done with, for the next
  /// frame to draw into.
  func recycle(_ canvas: consuming TerminalCanvas) {
    colors = canvas.colors
    glow = canvas.glow
    coverage = canvas.coverage
    materials = canvas.materials
  }
}
