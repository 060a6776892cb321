import Foundation

/// The shadow's layers: the card's coverage moved and blurred.
extension TerminalCanvas {
  /// One of the shadow's layers: its values in `window`, 0 elsewhere.
  struct ShadowLayer {
    var values: [Double]
    var window: Window

    func contains(_ sx: Int, _ sy: Int) -> Bool {
      sx >= window.x0 && sx < window.x1 && sy >= window.y0 && sy < window.y1
    }
  }

  /// The card's `coverage` (0 outside `cardBox`) of a `width` × `height`
  /// canvas moved by (`dx`, `dy`) subpixels and blurred over about `blur`
  /// (the CSS blur radius, in vertical subpixels), in `layer`'s
  /// storage with `scratch` for the passes (neither needs to be zero: only
  /// what the window covers is written and read).
  static func shadowLayer(
    of coverage: [Double], in cardBox: Window, width subW: Int, height subH: Int,
    dx: Double, dy: Double, blur: Double, layer: inout [Double], scratch: inout [Double]
  ) -> Window {
    if layer.count != subW * subH { layer = [Double](repeating: 0, count: subW * subH) }
    if scratch.count != subW * subH { scratch = [Double](repeating: 0, count: subW * subH) }
    let ix = Int(dx.rounded())
    let iy = Int(dy.rounded())
    // Where the moved coverage can be other than 0.
    var window = (
      x0: min(max(cardBox.x0 + ix, 0), subW), y0: min(max(cardBox.y0 + iy, 0), subH),
      x1: min(max(cardBox.x1 + ix, 0), subW), y1: min(max(cardBox.y1 + iy, 0), subH)
    )
    guard window.x0 < window.x1, window.y0 < window.y1 else { return (0, 0, 0, 0) }
    layer.withUnsafeMutableBufferPointer { layer in
      coverage.withUnsafeBufferPointer { coverage in
        let shift = iy &* subW &+ ix
        for sy in window.y0..<window.y1 {
          let row = sy &* subW
          for sx in window.x0..<window.x1 {
            layer[row &+ sx] = coverage[row &+ sx &- shift]
          }
        }
      }
    }
    // CSS blur is a Gaussian of σ = radius / 2; two box passes of about σ
    // each way come close. Across, a subpixel is half as wide: twice the boxes.
    let ry = max(Int((blur / 2).rounded()), 0)
    let rx = 2 * ry
    guard rx > 0 || ry > 0 else { return window }
    for _ in 0..<2 {
      window = Self.boxBlur(
        &layer, scratch: &scratch, width: subW, height: subH, rx: rx, ry: ry, window: window)
    }
    return window
  }

  /// A box blur of `rx` each way across, then `ry` down, with running sums,
  /// of the values of `a` in `window` (0 around it), in place; returns the
  /// window of the result (`window` grown by the radii). `scratch` holds
  /// the pass across.
  static func boxBlur(
    _ a: inout [Double], scratch: inout [Double], width: Int, height: Int, rx: Int, ry: Int,
    window wi: Window
  ) -> Window {
    let wo = (
      x0: max(wi.x0 - rx, 0), y0: max(wi.y0 - ry, 0), x1: min(wi.x1 + rx, width),
      y1: min(wi.y1 + ry, height)
    )
    // Multiplied by, not divided by: the same to an ulp, and the loops vectorise.
    let nx = 1 / Double(2 * rx + 1)
    let ny = 1 / Double(2 * ry + 1)
    var sums = [Double](repeating: 0, count: max(height, width))
    a.withUnsafeMutableBufferPointer { a in
      scratch.withUnsafeMutableBufferPointer { tmp in
        sums.withUnsafeMutableBufferPointer { sums in
          // Across each row with its running sum, all the rows at once
          // (their sums are independent, so they overlap), each in its order.
          for y in wo.y0..<wo.y1 {
            var s = 0.0
            if y >= wi.y0 && y < wi.y1 {
              let from = max(wo.x0 - rx, wi.x0)
              let to = min(wo.x0 + rx, wi.x1 - 1)
              if from <= to { for k in from...to { s += a[y * width + k] } }
            }
            sums[y] = s
          }
          // Rows the input has nothing in stay 0.
          let rowsIn = max(wo.y0, wi.y0)..<max(min(wo.y1, wi.y1), max(wo.y0, wi.y0))
          for y in wo.y0..<wo.y1 where !rowsIn.contains(y) {
            for x in wo.x0..<wo.x1 { tmp[y * width + x] = 0 }
          }
          for x in wo.x0..<wo.x1 {
            let add = x + rx + 1
            let drop = x - rx
            let adds = add >= wi.x0 && add < wi.x1
            let drops = drop >= wi.x0 && drop < wi.x1
            // s + a[add] - a[drop], in that order, where each is in the input.
            switch (adds, drops) {
            case (true, true):
              for y in rowsIn {
                let row = y &* width
                let s = sums[y]
                tmp[row &+ x] = s * nx
                sums[y] = s + a[row &+ add] - a[row &+ drop]
              }
            case (true, false):
              for y in rowsIn {
                let row = y &* width
                let s = sums[y]
                tmp[row &+ x] = s * nx
                sums[y] = s + a[row &+ add]
              }
            case (false, true):
              for y in rowsIn {
                let row = y &* width
                let s = sums[y]
                tmp[row &+ x] = s * nx
                sums[y] = s - a[row &+ drop]
              }
            case (false, false):
              for y in rowsIn { tmp[y &* width &+ x] = sums[y] * nx }
            }
          }
          // Down the columns, a row at a time: each column's running sum.
          let (x0, x1) = (wo.x0, wo.x1)
          for x in x0..<x1 { sums[x] = 0 }
          if wo.y0 < wo.y1 {
            for k in wo.y0...min(wo.y0 + ry, wo.y1 - 1) {
              let row = k &* width
              for x in x0..<x1 { sums[x] += tmp[row &+ x] }
            }
          }
          for y in wo.y0..<wo.y1 {
            let row = y &* width
            for x in x0..<x1 { a[row &+ x] = sums[x] * ny }
            if y + ry + 1 < wo.y1 {
              let next = (y + ry + 1) &* width
              for x in x0..<x1 { sums[x] += tmp[next &+ x] }
            }
            if y - ry >= wo.y0 {
              let old = (y - ry) &* width
              for x in x0..<x1 { sums[x] -= tmp[old &+ x] }
            }
          }
        }
      }
    }
    return wo
  }
}
