import Attitude
import Foundation
import Testing

@testable import TiltCard

/// The canvas drawn into the buffers of earlier frames (only where they
/// were drawn made plain again) is the canvas drawn into new ones, and
/// outside its drawn box it is the plain backdrop.
@Suite struct TerminalCanvasTests {
  typealias Mode = TerminalRenderer.ColorMode

  func frame(_ k: Int) -> CardFrame { TestSupport.swingingFrame(k, perSecond: 6) }

  func canvas(
    _ k: Int, columns: Int, rows: Int, mode: Mode,
    cache: TerminalRasterCache = TerminalRasterCache()
  ) -> TerminalCanvas {
    TerminalCanvas(
      frame: frame(k), face: TerminalCardFace(width: 340, height: 220), columns: columns,
      rows: rows, backdrop: mode == .trueColor || mode == .palette256,
      hardShadow: mode == .palette16, smooth: mode == .trueColor, cache: cache)
  }

  @Test(arguments: [Mode.trueColor, .palette256, .palette16])
  func buffersOfEarlierFramesDrawWhatNewOnesDo(mode: Mode) {
    let cache = TerminalRasterCache()
    for k in 0..<24 {
      // A new size halfway: every buffer filled again.
      let (columns, rows) = k < 12 ? (72, 22) : (60, 26)
      let reused = canvas(k, columns: columns, rows: rows, mode: mode, cache: cache)
      let fresh = canvas(k, columns: columns, rows: rows, mode: mode)
      let differing = reused.colors.indices.filter {
        reused.colors[$0] != fresh.colors[$0] || reused.coverage[$0] != fresh.coverage[$0]
          || reused.materials[$0] != fresh.materials[$0] || reused.glow[$0] != fresh.glow[$0]
      }
      #expect(reused.colors.count == fresh.colors.count)
      #expect(differing.isEmpty, "frame \(k): \(differing.count) subpixels differ")
      #expect(reused.drawnBox == fresh.drawnBox, "frame \(k)")
      // The buffers go round as the renderer sends them.
      _ = TerminalCells(canvas: reused, mode: mode, blocks: .quadrants, cache: cache)
      cache.recycle(reused)
    }
  }

  @Test(arguments: [Mode.trueColor, .palette16])
  func outsideTheDrawnBoxIsThePlainBackdrop(mode: Mode) {
    let (columns, rows) = (80, 24)
    let canvases = (0..<10).map { canvas($0, columns: columns, rows: rows, mode: mode) }
    let width = 2 * columns
    func outside(_ box: TerminalCanvas.Window, _ i: Int) -> Bool {
      let (x, y) = (i % width, i / width)
      return x < box.x0 || x >= box.x1 || y < box.y0 || y >= box.y1
    }
    var plain = 0
    for (a, b) in zip(canvases, canvases.dropFirst()) {
      #expect(a.drawnBox.x0 < a.drawnBox.x1 && a.drawnBox.y0 < a.drawnBox.y1)
      for i in a.colors.indices where outside(a.drawnBox, i) {
        #expect(a.coverage[i] == 0 && a.glow[i] == 0 && a.materials[i] == nil)
        // The backdrop is the same in every frame; without one, nothing.
        if outside(b.drawnBox, i) {
          #expect(a.colors[i] == b.colors[i])
          plain += 1
        }
        if mode == .palette16 { #expect(a.colors[i] == nil) }
      }
    }
    #expect(plain > 0, "some subpixels are outside two frames' boxes")
  }
}
