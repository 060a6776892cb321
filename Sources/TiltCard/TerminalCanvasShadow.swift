import Foundation

/// The shadow's layers: the card's coverage moved and blurred.
extension TerminalCanvas {
  /// One of the shadow's layers: its values in `window`, 0 elsewhere;
  /// where `coarse` is set, in `cells` instead: a grid of 2 × 2 subpixels,
  /// its cells `coarse` written (see
  /// ``upsampleRow(_:_:width:row:skip:cells:into:)``), then as much again
  /// for the blur's passes.
  struct ShadowLayer {
    var values: [Double]
    var window: Window
    var coarse: Window? = nil
    var cells: [Float] = []
    /// Whether its values are `cells` (as wide as the canvas) instead.
    var single = false

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
    // CSS blur is a Gaussian of σ = radius / 2; two box passes of about σ
    // each way come close. Across, a subpixel is half as wide: twice the boxes.
    let ry = max(Int((blur / 2).rounded()), 0)
    let rx = 2 * ry
    // The first pass reads the coverage where the moved layer would be.
    let shift = iy &* subW &+ ix
    var row = [Double](repeating: 0, count: subW + 2 * rx + 2)
    var sums = [Double](repeating: 0, count: max(subW, subH))
    layer.withUnsafeMutableBufferPointer { layer in
      coverage.withUnsafeBufferPointer { coverage in
        guard ry > 0 else {
          for sy in window.y0..<window.y1 {
            let row = sy &* subW
            for sx in window.x0..<window.x1 { layer[row &+ sx] = coverage[row &+ sx &- shift] }
          }
          return
        }
        scratch.withUnsafeMutableBufferPointer { scratch in
          row.withUnsafeMutableBufferPointer { row in
            sums.withUnsafeMutableBufferPointer { sums in
              let buffers = BlurBuffers(
                across: scratch.baseAddress!, row: row.baseAddress!, sums: sums.baseAddress!)
              window = boxBlur(
                coverage.baseAddress! - shift, into: layer.baseAddress!, buffers, width: subW,
                height: subH, rx: rx, ry: ry, window: window)
              window = boxBlur(
                layer.baseAddress!, into: layer.baseAddress!, buffers, width: subW, height: subH,
                rx: rx, ry: ry, window: window)
            }
          }
        }
      }
    }
    return window
  }

  /// A row's running totals for a box blur across: `totals[k - base]` the
  /// sum of `row`'s values in `input` left of k, for k in `base ... end`
  /// (0 before `input`, its whole sum after).
  @inline(__always)
  static func rowTotals<F: BinaryFloatingPoint>(
    _ row: UnsafePointer<F>, _ input: Range<Int>, through end: Int, base: Int,
    into totals: UnsafeMutablePointer<F>
  ) {
    for k in base..<input.lowerBound { totals[k &- base] = 0 }
    var s: F = 0
    for k in input {
      totals[k &- base] = s
      s += row[k]
    }
    for k in input.upperBound...end { totals[k &- base] = s }
  }

  /// Where a blur keeps its pass across (as large as the canvas), a row's
  /// running totals (its width + 2·rx + 2) and the columns' sums (as wide
  /// as the canvas, and as tall).
  struct BlurBuffers<F: BinaryFloatingPoint & SIMDScalar> {
    let across: UnsafeMutablePointer<F>
    let row: UnsafeMutablePointer<F>
    let sums: UnsafeMutablePointer<F>
  }

  /// A box blur of `rx` each way across, then `ry` down, of the values of
  /// `source` in `window` (0 around it), into `a` (which may be `source`);
  /// returns the window of the result (`window` grown by the radii).
  /// Across, each row's running totals give each box as a difference;
  /// down, each column's sum runs along.
  @_specialize(where F == Double)
  @_specialize(where F == Float)
  static func boxBlur<F: BinaryFloatingPoint & SIMDScalar>(
    _ source: UnsafePointer<F>, into a: UnsafeMutablePointer<F>, _ buffers: BlurBuffers<F>,
    width: Int, height: Int, rx: Int, ry: Int, window wi: Window
  ) -> Window {
    typealias Lanes = SIMD4<F>
    let wo = (
      x0: max(wi.x0 - rx, 0), y0: max(wi.y0 - ry, 0), x1: min(wi.x1 + rx, width),
      y1: min(wi.y1 + ry, height)
    )
    // Multiplied by, not divided by: the same to an ulp, and the loops vectorise.
    let nx = 1 / F(2 * rx + 1)
    let ny = 1 / F(2 * ry + 1)
    let (tmp, totals, sums) = (buffers.across, buffers.row, buffers.sums)
    // Rows the input has nothing in stay 0.
    let rowsIn = max(wo.y0, wi.y0)..<max(min(wo.y1, wi.y1), max(wo.y0, wi.y0))
    for y in wo.y0..<wo.y1 where !rowsIn.contains(y) {
      for x in wo.x0..<wo.x1 { tmp[y &* width &+ x] = 0 }
    }
    // totals[k - base]: the sum of the row's input left of k, for k in
    // base ... wo.x1 + rx (base ≤ wi.x0, and wo.x1 + rx ≥ wi.x1).
    let base = wo.x0 - rx
    for y in rowsIn {
      let row = y &* width
      rowTotals(source + row, wi.x0..<wi.x1, through: wo.x1 &+ rx, base: base, into: totals)
      let (upper, lower) = (totals + (rx &+ 1 &- base), totals - (rx &+ base))
      var x = wo.x0
      while x &+ 4 <= wo.x1 {
        let d = (Lanes.load(upper + x) - Lanes.load(lower + x)) * Lanes(repeating: nx)
        Lanes.store(d, tmp + (row &+ x))
        x &+= 4
      }
      for x in x..<wo.x1 { tmp[row &+ x] = (upper[x] - lower[x]) * nx }
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
      let out = a + y &* width
      let adds = y + ry + 1 < wo.y1
      let drops = y - ry >= wo.y0
      let next = tmp + (y &+ ry &+ 1) &* width
      let old = tmp + (y &- ry) &* width
      // sum + next - old, in that order, where each is in the window.
      switch (adds, drops) {
      case (true, true):
        var x = x0
        while x &+ 4 <= x1 {
          let s = Lanes.load(sums + x)
          Lanes.store(s * Lanes(repeating: ny), out + x)
          Lanes.store(s + Lanes.load(next + x) - Lanes.load(old + x), sums + x)
          x &+= 4
        }
        for x in x..<x1 {
          let s = sums[x]
          out[x] = s * ny
          sums[x] = s + next[x] - old[x]
        }
      case (true, false):
        var x = x0
        while x &+ 4 <= x1 {
          let s = Lanes.load(sums + x)
          Lanes.store(s * Lanes(repeating: ny), out + x)
          Lanes.store(s + Lanes.load(next + x), sums + x)
          x &+= 4
        }
        for x in x..<x1 {
          let s = sums[x]
          out[x] = s * ny
          sums[x] = s + next[x]
        }
      case (false, true):
        var x = x0
        while x &+ 4 <= x1 {
          let s = Lanes.load(sums + x)
          Lanes.store(s * Lanes(repeating: ny), out + x)
          Lanes.store(s - Lanes.load(old + x), sums + x)
          x &+= 4
        }
        for x in x..<x1 {
          let s = sums[x]
          out[x] = s * ny
          sums[x] = s - old[x]
        }
      case (false, false):
        for x in x0..<x1 { out[x] = sums[x] * ny }
      }
    }
    return wo
  }

  /// Four doubles of a row at once: each lane the same arithmetic as one
  /// at a time (so the same bits), in a quarter of the instructions (the
  /// compiler does not vectorise these loops: it cannot tell the buffers apart).
  typealias Lanes = SIMD4<Double>
}

extension SIMD4 {
  @inline(__always)
  static func load(_ p: UnsafePointer<Scalar>) -> Self {
    UnsafeRawPointer(p).loadUnaligned(as: Self.self)
  }

  @inline(__always)
  static func load(_ p: UnsafeMutablePointer<Scalar>) -> Self {
    UnsafeRawPointer(p).loadUnaligned(as: Self.self)
  }

  @inline(__always)
  static func store(_ v: Self, _ p: UnsafeMutablePointer<Scalar>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: Self.self)
  }
}
