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
    let (stepU, stepV, stepW) = (m.0 * pointsPerSX, m.3 * pointsPerSX, m.6 * pointsPerSX)
    colors.withUnsafeMutableBufferPointer { colors in
      materials.withUnsafeMutableBufferPointer { materials in
        glow.withUnsafeMutableBufferPointer { glow in
          coverage.withUnsafeMutableBufferPointer { coverage in
            // The buffers' starts, held (a store through one cannot move another).
            guard let colors = colors.baseAddress, let materials = materials.baseAddress,
              let glow = glow.baseAddress, let coverage = coverage.baseAddress
            else { return }
            // Subpixels off the face.
            @inline(__always)
            func off(_ ks: Range<Int>, row: Int) {
              plain(
                ks, row: row, colors: colors, materials: materials, glow: glow, coverage: coverage)
            }
            // Subpixels with the test (the inside, or the face sampled
            // whole), of which those outside `outer` are off the face.
            @inline(__always)
            func tested(
              _ ks: Range<Int>, row: Int, _ u0: Double, _ v0: Double, _ w0: Double,
              outer: (start: Int, end: Int)
            ) {
              let start = min(max(ks.lowerBound, outer.start), ks.upperBound)
              let end = max(min(ks.upperBound, outer.end), start)
              off(ks.lowerBound..<start, row: row)
              off(end..<ks.upperBound, row: row)
              for kk in start..<end {
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
                off(kk..<(kk &+ 1), row: row)
              }
            }
            let (face, plane, light) = (sampler.face, sampler.plane, sampler.light)
            let (sheenX, sheenY) = (sampler.sheenX, sampler.sheenY)
            let sheenRadius = face.sheenRadius
            // Subpixel k of a row, known inside, sampled and written.
            @inline(__always)
            func exact(
              _ kk: Int, row: Int, _ u0: Double, _ v0: Double, _ w0: Double
            ) -> InsideSample {
              let k = Double(kk)
              let w = w0 + k * stepW
              let r = 1 / w
              let u = (u0 + k * stepU) * r
              let v = (v0 + k * stepV) * r
              let d = face.sheenDistance(u, v, x: sheenX, y: sheenY)
              let s = TerminalCardFace.sheen(at: d)
              let c = plane.color(u, v).screened(s).scaled(light)
              colors[row &+ kk] = c
              glow[row &+ kk] = s
              return InsideSample(u: u, v: v, w: w, distance: d, color: c, glow: s)
            }
            // A run known inside: sampled every `insideStride` subpixels
            // (and at its end), the colour and glow between two samples
            // linear where that is within `insideTolerance`, else sampled.
            let smooth = sampler.smooth
            @inline(__always)
            func inside(
              _ ks: Range<Int>, row: Int, _ u0: Double, _ v0: Double, _ w0: Double
            ) {
              guard !ks.isEmpty else { return }
              (materials + (row &+ ks.lowerBound)).update(repeating: .face, count: ks.count)
              (coverage + (row &+ ks.lowerBound)).update(repeating: 1, count: ks.count)
              guard smooth else {
                for k in ks { _ = exact(k, row: row, u0, v0, w0) }
                return
              }
              var k = ks.lowerBound
              let last = ks.upperBound &- 1
              var a = exact(k, row: row, u0, v0, w0)
              while k < last {
                let h = min(insideStride, last &- k)
                let b = exact(k &+ h, row: row, u0, v0, w0)
                if h > 1 {
                  if interpolates(a, b, sheenX: sheenX, sheenY: sheenY, sheenRadius: sheenRadius) {
                    let step = 1 / Double(h)
                    let (dr, dg, db) = (
                      (b.color.r - a.color.r) * step, (b.color.g - a.color.g) * step,
                      (b.color.b - a.color.b) * step
                    )
                    let ds = (b.glow - a.glow) * step
                    var c = a.color
                    var s = a.glow
                    for j in (k &+ 1)..<(k &+ h) {
                      c = TerminalColor(c.r + dr, c.g + dg, c.b + db)
                      s += ds
                      colors[row &+ j] = c
                      glow[row &+ j] = s
                    }
                  } else {
                    for j in (k &+ 1)..<(k &+ h) { _ = exact(j, row: row, u0, v0, w0) }
                  }
                }
                a = b
                k &+= h
              }
            }
            var spans = TerminalFaceSpans()
            let bounds = spanBounds(sampler)
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
              let outer = drawsFace ? spans.outer : (0, count)
              var k = 0
              for run in drawsFace ? spans.runs : [] {
                tested(k..<run.start, row: row, u0, v0, w0, outer: outer)
                inside(run.start..<run.end, row: row, u0, v0, w0)
                k = run.end
              }
              tested(k..<count, row: row, u0, v0, w0, outer: outer)
            }
          }
        }
      }
    }
  }

  /// The bounds of `sampler`'s face's plain inside, for ``TerminalFaceSpans``.
  static func spanBounds(_ sampler: TerminalFaceSampler) -> TerminalFaceSpans.Bounds {
    let (cornerU, cornerV) = (sampler.cornerU, sampler.cornerV)
    // In a corner, |x|⁵ + |y|⁵ ≤ 1 holds in the square of side 0.87
    // (2 · 0.87⁵ < 1): a point a hairline inside it is neither out nor on
    // the hairline.
    let square = 0.87 * sampler.extent - sampler.rim
    return TerminalFaceSpans.Bounds(
      innerU: sampler.innerU, innerV: sampler.innerV, cornerU: cornerU, cornerV: cornerV,
      squareU: cornerU + square, squareV: cornerV + square, halfU: sampler.hw,
      halfV: sampler.hh, inset: sampler.plane.inset)
  }

  /// Subpixels `row + k` for each k of `ks`: off the face (no colour,
  /// material, sheen or coverage).
  @inline(__always)
  static func plain(
    _ ks: Range<Int>, row: Int, colors: UnsafeMutablePointer<TerminalColor?>,
    materials: UnsafeMutablePointer<TerminalCardFace.Material?>,
    glow: UnsafeMutablePointer<Double>, coverage: UnsafeMutablePointer<Double>
  ) {
    for k in ks {
      let i = row &+ k
      colors[i] = nil
      materials[i] = nil
      glow[i] = 0
      coverage[i] = 0
    }
  }

  /// How many subpixels apart a run inside is sampled in 24-bit colour.
  /// With a palette every subpixel is sampled: there a colour a fraction of
  /// a step off can fall to another of its colours.
  static let insideStride = 8

  /// How far (in 0…255 a channel) the colour may stray from the face's
  /// between two samples of a run inside.
  static let insideTolerance = 0.2

  /// How far (in 0…255 a channel) the colour may stray from the face's
  /// between two samples of a run inside for the perspective: the face
  /// point is not quite linear along a row.
  static let perspectiveTolerance = 0.1

  /// A sample of the face's inside: its face point and the map's
  /// denominator there, the sheen's distance (in its radii), the colour and
  /// the sheen's opacity.
  struct InsideSample {
    var u: Double
    var v: Double
    var w: Double
    var distance: Double
    var color: TerminalColor
    var glow: Double
  }

  /// Whether the colour and the glow between inside samples `a` and `b`
  /// (a few subpixels apart along a row) are linear within
  /// `insideTolerance`: the gradient is linear in the face point, and the
  /// face point all but linear along so short a run; the sheen is linear in
  /// its distance on each of its pieces, so both must be on one piece,
  /// with the distance from the centre (`sheenX`, `sheenY`) near its chord.
  /// On a segment of length L whose line passes p from the centre, the
  /// distance is √(p² + x²), whose second derivative is p² / dist³: at most
  /// 1/p, or p² / min(dist at a, dist at b)³ where the nearest point of the
  /// line is off the segment; it strays from its chord by at most L²/8 times
  /// that, and the colour from the face's by 255 · `sheenSlope` times that
  /// (in radii `sheenRadius`). L · p is the segment's cross product with
  /// the way to the centre.
  ///
  /// Between them the face point is `a + (b − a)·φ`, φ = t·w_b / ((1 − t)·w_a
  /// + t·w_b) at t of the way, which strays from t by at most
  /// |w_b − w_a| / (4·min |w|): the colour, by that times its change.
  @inline(__always)
  static func interpolates(
    _ a: InsideSample, _ b: InsideSample, sheenX: Double, sheenY: Double, sheenRadius: Double
  ) -> Bool {
    guard (a.distance < 0.28) == (b.distance < 0.28), (a.distance < 0.5) == (b.distance < 0.5)
    else { return false }
    let change = max(
      abs(b.color.r - a.color.r), abs(b.color.g - a.color.g), abs(b.color.b - a.color.b))
    guard change * abs(b.w - a.w) <= 4 * perspectiveTolerance * min(abs(a.w), abs(b.w)) else {
      return false
    }
    let (du, dv) = (b.u - a.u, b.v - a.v)
    let (cu, cv) = (sheenX - a.u, sheenY - a.v)
    let cross = abs(cu * dv - cv * du)
    let l2 = du * du + dv * dv
    // L² · curvature ≤ budget (points).
    let budget = 8 * insideTolerance / (255 * TerminalCardFace.sheenSlope) * sheenRadius
    let along = cu * du + cv * dv
    if along > 0 && along < l2 {
      // L² / p ≤ budget, with p = cross / L.
      return l2 * l2.squareRoot() <= budget * cross
    }
    // L² · p² / dist³ ≤ budget.
    let near = min(a.distance, b.distance) * sheenRadius
    return cross * cross <= budget * near * near * near
  }
}
