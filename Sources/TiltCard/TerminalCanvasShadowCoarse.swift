import Foundation

/// A wide shadow layer on a grid of 2 × 2 subpixels: a quarter of the work,
/// read back bilinearly. Its boxes are narrowed (each by a fraction of a
/// cell) so that the blur, the averaging into cells and the interpolation
/// spread as far as the subpixels' blur does: from a blur of 6 subpixels
/// down it is then within about 0.012 of it (0.005 away from the canvas's
/// edges), and closer as the blur widens.
extension TerminalCanvas {
  /// The blur's radius down (in subpixels) from which a layer is kept coarse.
  static let coarseShadowRadius = 6

  /// The shadow layer of `coverage` as ``shadowLayer(of:in:width:height:dx:dy:blur:layer:scratch:)``
  /// makes it, into `layer` (its window, and for a wide blur its grid).
  /// Only where `coarse`: a hard shadow is where the layers pass a
  /// threshold, and any difference moves its edge.
  static func shadowLayer(
    of coverage: [Double], in cardBox: Window, width subW: Int, height subH: Int,
    dx: Double, dy: Double, blur: Double, coarse: Bool, layer: inout ShadowLayer,
    scratch: inout [Double]
  ) {
    let ry = max(Int((blur / 2).rounded()), 0)
    (layer.coarse, layer.single) = (nil, false)
    if coarse && ry > 0 && ry < coarseShadowRadius {
      singleShadowLayer(
        of: coverage, in: cardBox, width: subW, height: subH, dx: dx, dy: dy, ry: ry,
        layer: &layer)
      return
    }
    guard coarse, ry >= coarseShadowRadius, subW % 2 == 0, subH % 2 == 0 else {
      layer.window = shadowLayer(
        of: coverage, in: cardBox, width: subW, height: subH, dx: dx, dy: dy, blur: blur,
        layer: &layer.values, scratch: &scratch)
      return
    }
    let (cw, ch) = (subW / 2, subH / 2)
    // The grid, then the blur's pass across.
    if layer.cells.count != 2 * cw * ch { layer.cells = [Float](repeating: 0, count: 2 * cw * ch) }
    let (ix, iy) = (Int(dx.rounded()), Int(dy.rounded()))
    let window = (
      x0: min(max(cardBox.x0 + ix, 0), subW), y0: min(max(cardBox.y0 + iy, 0), subH),
      x1: min(max(cardBox.x1 + ix, 0), subW), y1: min(max(cardBox.y1 + iy, 0), subH)
    )
    layer.window = (0, 0, 0, 0)
    guard window.x0 < window.x1, window.y0 < window.y1 else { return }
    var cells = (
      x0: window.x0 / 2, y0: window.y0 / 2, x1: (window.x1 + 1) / 2, y1: (window.y1 + 1) / 2
    )
    let (bx, by) = (coarseBox(radius: 2 * ry), coarseBox(radius: ry))
    var row = [Float](repeating: 0, count: cw + 2 * bx.radius + 2)
    var sums = [Float](repeating: 0, count: max(cw, ch))
    var zeros = [Float](repeating: 0, count: cw)
    layer.cells.withUnsafeMutableBufferPointer { grid in
      coverage.withUnsafeBufferPointer { coverage in
        downsample(
          coverage.baseAddress!, shift: iy &* subW &+ ix, width: subW, height: subH,
          window: window, cells: cells, into: grid.baseAddress!)
      }
      row.withUnsafeMutableBufferPointer { row in
        sums.withUnsafeMutableBufferPointer { sums in
          zeros.withUnsafeMutableBufferPointer { zeros in
            let buffers = CellBuffers(
              across: grid.baseAddress! + cw * ch, row: row.baseAddress!,
              sums: sums.baseAddress!, zeros: zeros.baseAddress!)
            for _ in 0..<2 {
              cells = fractionalBoxBlur(
                grid.baseAddress!, buffers, width: cw, height: ch, x: bx, y: by, window: cells)
            }
          }
        }
      }
    }
    cells = shown(grid: layer.cells, width: cw, cells: cells, above: faintestShadow)
    guard cells.x0 < cells.x1, cells.y0 < cells.y1 else { return }
    layer.coarse = cells
    // A subpixel reads the two cells nearest it each way: those whose
    // centres are within a cell of its own.
    layer.window = (
      max(2 * cells.x0 - 1, 0), max(2 * cells.y0 - 1, 0), min(2 * cells.x1 + 1, subW),
      min(2 * cells.y1 + 1, subH)
    )
  }

  /// The wide layer's value below which it cannot change a colour of the
  /// backdrop by as much as 0.05 / 255 (its opacity 0.20 × the shadow's
  /// depth × the backdrop's brightest channel): left as 0 (see
  /// ``shown(grid:width:cells:above:)``).
  static let faintestShadow =
    0.05
    / (0.20 * shadowDepth
      * max(
        backdropCentre.r, backdropCentre.g, backdropCentre.b, backdropEdge.r, backdropEdge.g,
        backdropEdge.b))

  /// The smallest window of `cells` (of a grid `width` cells wide) that
  /// holds all its cells above `threshold`: the rest are left out of the
  /// layer (and so of what a frame draws). A subpixel reads the cells
  /// around it at weights of at most 1.25 in all, so it is off by less
  /// than 1.25 × `threshold`.
  static func shown(grid: [Float], width cw: Int, cells: Window, above threshold: Double) -> Window
  {
    let t = Float(threshold)
    var (x0, x1, y0, y1) = (cells.x1, cells.x0, cells.y1, cells.y0)
    grid.withUnsafeBufferPointer { grid in
      for cy in cells.y0..<cells.y1 {
        let row = grid.baseAddress! + cy &* cw
        var l = cells.x0
        while l < cells.x1 && row[l] <= t { l &+= 1 }
        guard l < cells.x1 else { continue }
        var r = cells.x1
        while row[r &- 1] <= t { r &-= 1 }
        (x0, x1) = (min(x0, l), max(x1, r))
        (y0, y1) = (min(y0, cy), cy &+ 1)
      }
    }
    return (x0, y0, x1, y1)
  }

  /// A box of `radius` + 1 cells each way whose outermost cells weigh
  /// `edge` (0 ..< 1).
  struct FractionalBox {
    var radius: Int
    var edge: Double
  }

  /// The box on cells of 2 subpixels that, with the averaging into cells and
  /// the interpolation back, spreads as far as a box of `radius` subpixels
  /// each way (its variance, (2r + 1)² − 1) / 12; each of the two passes
  /// takes half of the averaging's 1/4 and the interpolation's 3/4).
  static func coarseBox(radius r: Int) -> FractionalBox {
    let v = (Double(r * (r + 1)) / 3 - 0.5) / 4
    var m = 0
    while Double((m + 1) * (m + 2)) / 3 <= v { m += 1 }
    // Weights 1 for |j| ≤ m and e at ±(m + 1): a variance of v.
    let inner = Double(m * (m + 1) * (2 * m + 1)) / 3
    let e = (v * Double(2 * m + 1) - inner) / (2 * Double((m + 1) * (m + 1)) - 2 * v)
    return FractionalBox(radius: m + 1, edge: min(max(e, 0), 1))
  }

  /// The average of each 2 × 2 of subpixels of `coverage` moved by `shift`
  /// (its values in `window`, 0 around it) into the `cells` of `out` (a
  /// grid half as wide and half as tall).
  static func downsample(
    _ coverage: UnsafePointer<Double>, shift: Int, width subW: Int, height subH: Int,
    window: Window, cells: Window, into out: UnsafeMutablePointer<Float>
  ) {
    let cw = subW / 2
    let source = coverage - shift
    for cy in cells.y0..<cells.y1 {
      let o = out + cy &* cw
      let (y0, y1) = (max(2 * cy, window.y0), min(2 * cy + 2, window.y1))
      for cx in cells.x0..<cells.x1 { o[cx] = 0 }
      for y in y0..<y1 {
        let s = source + y &* subW
        var cx = cells.x0
        // Whole pairs inside the window, then the ends.
        if 2 * cx < window.x0 {
          o[cx] += Float(s[window.x0] * 0.25)
          cx &+= 1
        }
        while cx &+ 2 <= cells.x1 && 2 &* cx &+ 4 <= window.x1 {
          let v = Lanes.load(s + 2 &* cx)
          let pair = SIMD2<Float>((v.evenHalf + v.oddHalf) * SIMD2(repeating: 0.25))
          let sum = SIMD2(o[cx], o[cx &+ 1]) + pair
          (o[cx], o[cx &+ 1]) = (sum.x, sum.y)
          cx &+= 2
        }
        for c in cx..<cells.x1 {
          var v = 0.0
          for x in max(2 * c, window.x0)..<min(2 * c + 2, window.x1) { v += s[x] }
          o[c] += Float(v * 0.25)
        }
      }
    }
  }

  /// The grid's buffers for its blur: as ``BlurBuffers``, and a row of 0s
  /// as wide as the grid.
  struct CellBuffers {
    let across: UnsafeMutablePointer<Float>
    let row: UnsafeMutablePointer<Float>
    let sums: UnsafeMutablePointer<Float>
    let zeros: UnsafePointer<Float>
  }

  /// Four cells of a row at once.
  typealias CellLanes = SIMD4<Float>

  /// ``boxBlur(_:into:_:width:height:rx:ry:window:)`` in place, in single
  /// precision (the sums of a row of a few hundred cells are then within
  /// 0.0001 of a cell), with boxes whose outermost cells weigh a fraction
  /// (`x` across, `y` down).
  static func fractionalBoxBlur(
    _ a: UnsafeMutablePointer<Float>, _ buffers: CellBuffers, width: Int, height: Int,
    x bx: FractionalBox, y by: FractionalBox, window wi: Window
  ) -> Window {
    let (rx, ry) = (bx.radius, by.radius)
    let wo = (
      x0: max(wi.x0 - rx, 0), y0: max(wi.y0 - ry, 0), x1: min(wi.x1 + rx, width),
      y1: min(wi.y1 + ry, height)
    )
    let nx = Float(1 / (Double(2 * rx - 1) + 2 * bx.edge))
    let ny = Float(1 / (Double(2 * ry - 1) + 2 * by.edge))
    let (cx, cy) = (
      CellLanes(repeating: Float(1 - bx.edge)), CellLanes(repeating: Float(1 - by.edge))
    )
    let (tmp, totals, sums, zeros) = (buffers.across, buffers.row, buffers.sums, buffers.zeros)
    for y in wo.y0..<wo.y1 where y < wi.y0 || y >= wi.y1 {
      for x in wo.x0..<wo.x1 { tmp[y &* width &+ x] = 0 }
    }
    let base = wo.x0 - rx
    for y in max(wi.y0, wo.y0)..<min(wi.y1, wo.y1) {
      let row = y &* width
      rowTotals(a + row, wi.x0..<wi.x1, through: wo.x1 &+ rx, base: base, into: totals)
      // The whole box less part of its two outermost cells.
      let (upper, inUpper) = (totals + (rx &+ 1 &- base), totals + (rx &- base))
      let (lower, inLower) = (totals - (rx &+ base), totals - (rx &- 1 &+ base))
      var x = wo.x0
      while x &+ 4 <= wo.x1 {
        let (u, l) = (CellLanes.load(upper + x), CellLanes.load(lower + x))
        let ends = (u - CellLanes.load(inUpper + x)) + (CellLanes.load(inLower + x) - l)
        CellLanes.store((u - l - cx * ends) * CellLanes(repeating: nx), tmp + (row &+ x))
        x &+= 4
      }
      for x in x..<wo.x1 {
        let ends = (upper[x] - inUpper[x]) + (inLower[x] - lower[x])
        tmp[row &+ x] = (upper[x] - lower[x] - cx[0] * ends) * nx
      }
    }
    let (x0, x1) = (wo.x0, wo.x1)
    for x in x0..<x1 { sums[x] = 0 }
    for k in wo.y0...min(wo.y0 + ry, wo.y1 - 1) {
      let row = k &* width
      for x in x0..<x1 { sums[x] += tmp[row &+ x] }
    }
    func rowOf(_ y: Int) -> UnsafePointer<Float> {
      y >= wo.y0 && y < wo.y1 ? UnsafePointer(tmp + y &* width) : zeros
    }
    for y in wo.y0..<wo.y1 {
      let out = a + y &* width
      let (next, old) = (rowOf(y &+ ry &+ 1), rowOf(y &- ry))
      let (top, bottom) = (old, rowOf(y &+ ry))
      var x = x0
      while x &+ 4 <= x1 {
        let s = CellLanes.load(sums + x)
        let ends = CellLanes.load(top + x) + CellLanes.load(bottom + x)
        CellLanes.store((s - cy * ends) * CellLanes(repeating: ny), out + x)
        CellLanes.store(s + CellLanes.load(next + x) - CellLanes.load(old + x), sums + x)
        x &+= 4
      }
      for x in x..<x1 {
        let s = sums[x]
        out[x] = (s - cy[0] * (top[x] + bottom[x])) * ny
        sums[x] = s + next[x] - old[x]
      }
    }
    return wo
  }

  /// Row `sy` of `layer` (coarse) at its window's subpixels `x0 ..< x1`
  /// but those of `skip`, into `out[x - x0]`, bilinearly from the centres
  /// of the cells around each; `cells` is a row as wide as the grid + 2.
  static func upsampleRow(
    _ layer: ShadowLayer, _ values: UnsafePointer<Float>, width subW: Int, row sy: Int,
    skip: Range<Int>, cells: UnsafeMutablePointer<Double>, into out: UnsafeMutablePointer<Double>
  ) {
    guard let c = layer.coarse else { return }
    let cw = subW / 2
    // Cells c0 and c0 + 1 down, by ¾ and ¼ or ¼ and ¾; cells[k + 1] is cell
    // k across (0 outside the grid's window).
    let c0 = (sy &- 1) >> 1
    let w1 = sy & 1 == 0 ? 0.75 : 0.25
    // Past the canvas's edge a cell is on the line through the two at the
    // edge (the blur of the subpixels falls off there, cut at the edge);
    // past the window's, 0.
    let ch = layer.cells.count / 2 / cw
    var (ta, tb, wa, wb) = (c0, c0 &+ 1, 1 - w1, w1)
    if c0 == -1 {
      (ta, tb, wa, wb) = (0, 1, 1.25, -0.25)
    } else if c0 &+ 1 == ch {
      (ta, tb, wa, wb) = (ch &- 1, ch &- 2, 1.25, -0.25)
    }
    let (a, b) = (ta >= c.y0 && ta < c.y1, tb >= c.y0 && tb < c.y1)
    if !b && wb < 0 { wa = 1 }
    if !a { wa = 0 }
    if !b { wb = 0 }
    let (ra, rb) = (values + ta &* cw, values + tb &* cw)
    let (pa, pb) = (a ? ra : rb, b ? rb : ra)
    var k = c.x0
    let (fa, fb) = (CellLanes(repeating: Float(wa)), CellLanes(repeating: Float(wb)))
    while k &+ 4 <= c.x1 {
      let v = CellLanes.load(pa + k) * fa + CellLanes.load(pb + k) * fb
      Lanes.store(Lanes(v), cells + (k &+ 1))
      k &+= 4
    }
    for k in k..<c.x1 { cells[k &+ 1] = Double(pa[k]) * wa + Double(pb[k]) * wb }
    let wide = c.x1 - c.x0 > 1
    cells[c.x0] = c.x0 != 0 ? 0 : wide ? 2 * cells[1] - cells[2] : cells[1]
    cells[c.x1 &+ 1] = c.x1 != cw ? 0 : wide ? 2 * cells[cw] - cells[cw &- 1] : cells[cw]
    // Subpixel x between cells (x − 1) >> 1 and the next: ¼ and ¾ (x even)
    // or ¾ and ¼ (x odd); two cells' four subpixels at a time, from cell k.
    let o = out - layer.window.x0
    let (x0, x1) = (layer.window.x0, layer.window.x1)
    upsample(cells, x0, min(x1, max(skip.lowerBound, x0)), into: o)
    upsample(cells, max(x0, min(skip.upperBound, x1)), x1, into: o)
  }

  /// Subpixels `x0 ..< x1` of a row of cells (cell k at `cells[k + 1]`)
  /// into `o[x]`.
  @inline(__always)
  static func upsample(
    _ cells: UnsafeMutablePointer<Double>, _ x0: Int, _ x1: Int,
    into o: UnsafeMutablePointer<Double>
  ) {
    guard x0 < x1 else { return }
    var x = x0
    if x & 1 == 1 {
      o[x] = cells[(x &+ 1) >> 1] * 0.75 + cells[((x &+ 1) >> 1) &+ 1] * 0.25
      x &+= 1
    }
    let (q, h) = (SIMD2<Double>(repeating: 0.25), SIMD2<Double>(repeating: 0.75))
    while x &+ 4 <= x1 {
      let k = x >> 1
      let c = SIMD2(cells[k &+ 1], cells[k &+ 2])
      let even = SIMD2(cells[k], cells[k &+ 1]) * q + c * h
      let odd = c * h + SIMD2(cells[k &+ 2], cells[k &+ 3]) * q
      (o[x], o[x &+ 1], o[x &+ 2], o[x &+ 3]) = (even.x, odd.x, even.y, odd.y)
      x &+= 4
    }
    for x in x..<x1 {
      let j = ((x &- 1) >> 1) &+ 1
      let w = x & 1 == 0 ? 0.25 : 0.75
      o[x] = cells[j] * w + cells[j &+ 1] * (1 - w)
    }
  }
}
