import Foundation

/// A tight shadow layer over the backdrop in single precision: the box
/// passes on half as many bytes (two floats' lanes in a vector op of
/// four), within about 0.00001 of the layer in double precision. A hard
/// shadow keeps double precision: it is where the layers pass a threshold.
extension TerminalCanvas {
  /// ``shadowLayer(of:in:width:height:dx:dy:blur:layer:scratch:)`` into
  /// `layer.cells` (its values, then as much again for the blur's pass
  /// across), `layer.single` set; `ry` the blur's radius down (> 0).
  static func singleShadowLayer(
    of coverage: [Double], in cardBox: Window, width subW: Int, height subH: Int,
    dx: Double, dy: Double, ry: Int, layer: inout ShadowLayer
  ) {
    let count = subW * subH
    if layer.cells.count < 2 * count { layer.cells = [Float](repeating: 0, count: 2 * count) }
    let (ix, iy) = (Int(dx.rounded()), Int(dy.rounded()))
    var window = (
      x0: min(max(cardBox.x0 + ix, 0), subW), y0: min(max(cardBox.y0 + iy, 0), subH),
      x1: min(max(cardBox.x1 + ix, 0), subW), y1: min(max(cardBox.y1 + iy, 0), subH)
    )
    layer.single = true
    layer.window = (0, 0, 0, 0)
    guard window.x0 < window.x1, window.y0 < window.y1 else { return }
    let rx = 2 * ry
    let shift = iy &* subW &+ ix
    var row = [Float](repeating: 0, count: subW + 2 * rx + 2)
    var sums = [Float](repeating: 0, count: max(subW, subH))
    layer.cells.withUnsafeMutableBufferPointer { cells in
      let values = cells.baseAddress!
      coverage.withUnsafeBufferPointer { coverage in
        // The moved coverage in the window, as floats.
        for sy in window.y0..<window.y1 {
          let (to, from) = (values + sy &* subW, coverage.baseAddress! + (sy &* subW &- shift))
          var x = window.x0
          while x &+ 4 <= window.x1 {
            SIMD4<Float>.store(SIMD4<Float>(SIMD4<Double>.load(from + x)), to + x)
            x &+= 4
          }
          for x in x..<window.x1 { to[x] = Float(from[x]) }
        }
      }
      row.withUnsafeMutableBufferPointer { row in
        sums.withUnsafeMutableBufferPointer { sums in
          let buffers = BlurBuffers(
            across: values + count, row: row.baseAddress!, sums: sums.baseAddress!)
          for _ in 0..<2 {
            window = boxBlur(
              values, into: values, buffers, width: subW, height: subH, rx: rx, ry: ry,
              window: window)
          }
        }
      }
    }
    layer.window = window
  }

  /// Row `sy` of `layer` (in single precision) at its window's subpixels
  /// but those of `skip`, into `out[x - x0]`.
  static func widenRow(
    _ layer: ShadowLayer, _ values: UnsafePointer<Float>, width subW: Int, row sy: Int,
    skip: Range<Int>, into out: UnsafeMutablePointer<Double>
  ) {
    let (x0, x1) = (layer.window.x0, layer.window.x1)
    let (from, to) = (values + sy &* subW, out - x0)
    @inline(__always)
    func widen(_ a: Int, _ b: Int) {
      var x = a
      while x &+ 4 <= b {
        SIMD4<Double>.store(SIMD4<Double>(SIMD4<Float>.load(from + x)), to + x)
        x &+= 4
      }
      for x in x..<b { to[x] = Double(from[x]) }
    }
    widen(x0, min(x1, max(skip.lowerBound, x0)))
    widen(max(x0, min(skip.upperBound, x1)), x1)
  }
}
