import Foundation

/// The face's pass: the middle of each subpixel of the card's box.
extension TerminalCanvas {
  /// Samples the middle of each subpixel of `box` (all of it written) of a
  /// canvas `subW` subpixels wide. Along a row the map's numerators and
  /// denominator are linear in the column: each is its value at the row's
  /// start plus a step per subpixel. Away from the outline, its hairline,
  /// the corners and the chip or code, a sample is the gradient and the sheen.
  static func drawFace(
    _ sampler: TerminalFaceSampler, in box: Window, width subW: Int,
    colors: inout [TerminalColor?], materials: inout [TerminalCardFace.Material?],
    glow: inout [Double], coverage: inout [Double]
  ) {
    let m = sampler.m
    let (pointsPerSX, pointsPerSY) = (sampler.pointsPerSX, sampler.pointsPerSY)
    let (centreX, centreY) = (sampler.centreX, sampler.centreY)
    let drawsFace = sampler.drawsFace
    let (rim, extent) = (sampler.rim, sampler.extent)
    let (innerU, innerV) = (sampler.innerU, sampler.innerV)
    let (cornerU, cornerV) = (sampler.cornerU, sampler.cornerV)
    let (stepU, stepV, stepW) = (m.0 * pointsPerSX, m.3 * pointsPerSX, m.6 * pointsPerSX)
    colors.withUnsafeMutableBufferPointer { colors in
      materials.withUnsafeMutableBufferPointer { materials in
        glow.withUnsafeMutableBufferPointer { glow in
          coverage.withUnsafeMutableBufferPointer { coverage in
            // The buffers' starts, held (a store through one cannot move another).
            guard let colors = colors.baseAddress, let materials = materials.baseAddress,
              let glow = glow.baseAddress, let coverage = coverage.baseAddress
            else { return }
            // A subpixel k of a row with the test (the inside, or the face
            // sampled whole); a run of them known to be inside.
            @inline(__always)
            func tested(
              _ ks: Range<Int>, row: Int, _ u0: Double, _ v0: Double, _ w0: Double
            ) {
              for kk in ks {
                let i = row &+ kk
                let k = Double(kk)
                let w = w0 + k * stepW
                if drawsFace && abs(w) > 1e-12 {
                  let r = 1 / w
                  let u = (u0 + k * stepU) * r
                  let v = (v0 + k * stepV) * r
                  if let (c, material, s) = sampler.shade(u, v) {
                    colors[i] = c
                    materials[i] = material
                    glow[i] = s
                    coverage[i] = 1
                    continue
                  }
                }
                colors[i] = nil
                materials[i] = nil
                glow[i] = 0
                coverage[i] = 0
              }
            }
            @inline(__always)
            func inside(
              _ ks: Range<Int>, row: Int, _ u0: Double, _ v0: Double, _ w0: Double
            ) {
              for kk in ks {
                let i = row &+ kk
                let k = Double(kk)
                let r = 1 / (w0 + k * stepW)
                let u = (u0 + k * stepU) * r
                let v = (v0 + k * stepV) * r
                let s = sampler.face.sheen(u, v, x: sampler.sheenX, y: sampler.sheenY)
                colors[i] = sampler.plane.color(u, v).screened(s).scaled(sampler.light)
                materials[i] = .face
                glow[i] = s
                coverage[i] = 1
              }
            }
            var spans = TerminalFaceSpans()
            // In a corner, |x|⁵ + |y|⁵ ≤ 1 holds in the square of side 0.87
            // (2 · 0.87⁵ < 1): a point a hairline inside it is neither out
            // nor on the hairline.
            let square = 0.87 * extent - rim
            let bounds = TerminalFaceSpans.Bounds(
              innerU: innerU, innerV: innerV, cornerU: cornerU, cornerV: cornerV,
              squareU: cornerU + square, squareV: cornerV + square, inset: sampler.plane.inset)
            let count = box.x1 - box.x0
            for sy in box.y0..<box.y1 {
              let vy = (Double(sy) + 0.5 - centreY) * pointsPerSY
              let vx0 = (Double(box.x0) + 0.5 - centreX) * pointsPerSX
              let u0 = m.0 * vx0 + m.1 * vy + m.2
              let v0 = m.3 * vx0 + m.4 * vy + m.5
              let w0 = m.6 * vx0 + m.7 * vy + m.8
              // Subpixel k of the row is at index row + k.
              let row = sy &* subW &+ box.x0
              if drawsFace {
                spans.find(
                  u0: u0, v0: v0, w0: w0, stepU: stepU, stepV: stepV, stepW: stepW, count: count,
                  bounds: bounds)
              }
              var k = 0
              for run in drawsFace ? spans.runs : [] {
                tested(k..<run.start, row: row, u0, v0, w0)
                inside(run.start..<run.end, row: row, u0, v0, w0)
                k = run.end
              }
              tested(k..<count, row: row, u0, v0, w0)
            }
          }
        }
      }
    }
  }
}
