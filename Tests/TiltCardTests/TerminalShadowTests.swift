import Foundation
import Testing

@testable import TiltCard

/// A wide shadow layer kept on cells of 2 × 2 subpixels and read back is
/// within 0.012 of the layer blurred subpixel by subpixel (the wide layer
/// darkens by at most 0.36 of it, on a backdrop of at most 60 of 255: 0.26).
@Suite struct TerminalShadowTests {
  /// A card's coverage: a quadrilateral (`skew` subpixels wider at the
  /// bottom than the top) with soft sides, 0 outside `box`.
  func coverage(width: Int, height: Int, box: TerminalCanvas.Window, skew: Double) -> [Double] {
    var out = [Double](repeating: 0, count: width * height)
    for y in (box.y0 + 1)..<(box.y1 - 1) {
      let f = Double(y - box.y0) / Double(box.y1 - box.y0)
      let left = Double(box.x0 + 1) + skew * (1 - f)
      let right = Double(box.x1 - 1) - skew * (1 - f)
      for x in box.x0..<box.x1 {
        let c = Double(x) + 0.5
        out[y * width + x] = min(max(c - left, 0), 1) * min(max(right - c, 0), 1)
      }
    }
    return out
  }

  /// The largest difference of the coarse layer read back from the fine one.
  func largestDifference(
    width: Int, height: Int, box: TerminalCanvas.Window, skew: Double, dx: Double, dy: Double,
    blur: Double
  ) -> Double {
    let cover = coverage(width: width, height: height, box: box, skew: skew)
    var (fine, scratch) = ([Double](), [Double]())
    let window = TerminalCanvas.shadowLayer(
      of: cover, in: box, width: width, height: height, dx: dx, dy: dy, blur: blur,
      layer: &fine, scratch: &scratch)
    var layer = TerminalCanvas.ShadowLayer(values: [], window: (0, 0, 0, 0))
    TerminalCanvas.shadowLayer(
      of: cover, in: box, width: width, height: height, dx: dx, dy: dy, blur: blur, coarse: true,
      layer: &layer, scratch: &scratch)
    #expect(layer.coarse != nil)
    var (row, cells) = ([Double](repeating: 0, count: width), [Double](repeating: 0, count: width))
    var largest = 0.0
    for y in 0..<height {
      let inLayer = y >= layer.window.y0 && y < layer.window.y1
      if inLayer {
        layer.cells.withUnsafeBufferPointer { values in
          row.withUnsafeMutableBufferPointer { row in
            cells.withUnsafeMutableBufferPointer { cells in
              TerminalCanvas.upsampleRow(
                layer, values.baseAddress!, width: width, row: y, skip: 0..<0,
                cells: cells.baseAddress!, into: row.baseAddress!)
            }
          }
        }
      }
      for x in 0..<width {
        let inFine = x >= window.x0 && x < window.x1 && y >= window.y0 && y < window.y1
        let inCoarse = inLayer && x >= layer.window.x0 && x < layer.window.x1
        let a = inFine ? fine[y * width + x] : 0
        let b = inCoarse ? row[x - layer.window.x0] : 0
        largest = max(largest, abs(a - b))
      }
    }
    return largest
  }

  @Test(arguments: [6.0, 7.0, 10.0, 14.0])
  func coarseLayerIsCloseToTheFineOne(radius: Double) {
    // In the middle; near the canvas's edges (the blur cut there); tilted.
    let cases: [(TerminalCanvas.Window, Double, Double, Double)] = [
      ((40, 12, 200, 62), 0, 3, 5), ((4, 2, 236, 76), 0, -2, 3), ((30, 10, 210, 70), 25, 7, 9),
    ]
    for (box, skew, dx, dy) in cases {
      let d = largestDifference(
        width: 240, height: 80, box: box, skew: skew, dx: dx, dy: dy, blur: 2 * radius)
      #expect(d <= 0.012, "radius \(radius), box \(box): \(d)")
    }
  }

  @Test func hardShadowStaysFine() {
    let box = (x0: 40, y0: 12, x1: 200, y1: 62)
    let cover = coverage(width: 240, height: 80, box: box, skew: 10)
    var (fine, scratch) = ([Double](), [Double]())
    let window = TerminalCanvas.shadowLayer(
      of: cover, in: box, width: 240, height: 80, dx: 2, dy: 4, blur: 20, layer: &fine,
      scratch: &scratch)
    var layer = TerminalCanvas.ShadowLayer(values: [], window: (0, 0, 0, 0))
    TerminalCanvas.shadowLayer(
      of: cover, in: box, width: 240, height: 80, dx: 2, dy: 4, blur: 20, coarse: false,
      layer: &layer, scratch: &scratch)
    #expect(layer.coarse == nil)
    #expect(layer.window == window)
    #expect(layer.values == fine)
  }

  @Test(arguments: [2.0, 6.0, 10.0])
  func singleLayerIsCloseToTheDoubleOne(blur: Double) {
    let box = (x0: 30, y0: 10, x1: 210, y1: 70)
    let cover = coverage(width: 240, height: 80, box: box, skew: 25)
    var (fine, scratch) = ([Double](), [Double]())
    let window = TerminalCanvas.shadowLayer(
      of: cover, in: box, width: 240, height: 80, dx: 3, dy: 5, blur: blur, layer: &fine,
      scratch: &scratch)
    var layer = TerminalCanvas.ShadowLayer(values: [], window: (0, 0, 0, 0))
    TerminalCanvas.shadowLayer(
      of: cover, in: box, width: 240, height: 80, dx: 3, dy: 5, blur: blur, coarse: true,
      layer: &layer, scratch: &scratch)
    #expect(layer.single && layer.coarse == nil)
    #expect(layer.window == window)
    var row = [Double](repeating: 0, count: 240)
    var largest = 0.0
    for y in window.y0..<window.y1 {
      layer.cells.withUnsafeBufferPointer { values in
        row.withUnsafeMutableBufferPointer { row in
          TerminalCanvas.widenRow(
            layer, values.baseAddress!, width: 240, row: y, skip: 100..<120,
            into: row.baseAddress!)
        }
      }
      for x in window.x0..<window.x1 where !(100..<120).contains(x) {
        largest = max(largest, abs(fine[y * 240 + x] - row[x - window.x0]))
      }
    }
    #expect(largest <= 0.00001, "\(largest)")
  }

  @Test func faintCellsAreLeftOut() {
    // A grid of 10 × 6 cells, its window cells 1 ..< 9 across, 1 ..< 5 down.
    var grid = [Float](repeating: 0, count: 60)
    let t = TerminalCanvas.faintestShadow
    for (x, y) in [(1, 1), (8, 4), (2, 3)] { grid[y * 10 + x] = Float(t / 2) }
    for (x, y) in [(3, 2), (6, 3)] { grid[y * 10 + x] = Float(2 * t) }
    let cells = (x0: 1, y0: 1, x1: 9, y1: 5)
    let shown = TerminalCanvas.shown(grid: grid, width: 10, cells: cells, above: t)
    #expect(shown == (3, 2, 7, 4))
    let none = TerminalCanvas.shown(
      grid: [Float](repeating: 0, count: 60), width: 10, cells: cells, above: t)
    #expect(none.x0 >= none.x1 && none.y0 >= none.y1)
  }
}
