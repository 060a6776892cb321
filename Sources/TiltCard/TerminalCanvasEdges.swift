import Foundation

/// The outline's pass: 2 × 2 samples of the subpixels whose material differs
/// from a neighbour's (the outline, the chip's and the code's edges).
extension TerminalCanvas {
  /// The subpixels of `box` whose material (`nil` where the face covers
  /// none) differs from a neighbour's, of a `subW` × `subH` canvas: eight
  /// at a time where all are like their neighbours.
  static func edges(
    of materials: [TerminalCardFace.Material?], in box: Window, width subW: Int, height subH: Int
  ) -> [(Int, Int)] {
    var edges: [(Int, Int)] = []
    edges.reserveCapacity(4 * (box.x1 - box.x0 + box.y1 - box.y0))
    materials.withUnsafeBufferPointer { materials in
      guard let start = materials.baseAddress else { return }
      let bytes = UnsafeRawPointer(start)
      @inline(__always) func word(_ i: Int) -> UInt64 {
        bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      }
      @inline(__always) func isEdge(_ sx: Int, _ sy: Int) -> Bool {
        let i = sy &* subW &+ sx
        let k = materials[i]
        return (sx > 0 && materials[i &- 1] != k) || (sx &+ 1 < subW && materials[i &+ 1] != k)
          || (sy > 0 && materials[i &- subW] != k)
          || (sy &+ 1 < subH && materials[i &+ subW] != k)
      }
      for sy in box.y0..<box.y1 {
        // Eight at a time where every neighbour is on the canvas.
        let inside = sy > 0 && sy &+ 1 < subH
        var sx = box.x0
        while sx < box.x1 {
          let i = sy &* subW &+ sx
          if inside && sx > 0 && sx &+ 8 < subW && sx &+ 8 <= box.x1 {
            let middle = word(i)
            if middle == word(i &- 1) && middle == word(i &+ 1) && middle == word(i &- subW)
              && middle == word(i &+ subW)
            {
              sx &+= 8
              continue
            }
          }
          for x in sx..<min(sx &+ 8, box.x1) where isEdge(x, sy) { edges.append((x, sy)) }
          sx = min(sx &+ 8, box.x1)
        }
      }
    }
    return edges
  }

  /// Each of `edges` the average of the face at (¼, ¼), (¾, ¼), (¼, ¾)
  /// and (¾, ¾) of it, its material the most of theirs, its coverage the
  /// share of them on the face, in a canvas `subW` subpixels wide.
  static func sampleEdges(
    _ edges: [(Int, Int)], _ sampler: TerminalFaceSampler, width subW: Int,
    colors: inout [TerminalColor?], materials: inout [TerminalCardFace.Material?],
    glow: inout [Double], coverage: inout [Double]
  ) {
    let m = sampler.m
    let (pointsPerSX, pointsPerSY) = (sampler.pointsPerSX, sampler.pointsPerSY)
    let (centreX, centreY) = (sampler.centreX, sampler.centreY)
    let (drawsFace, smooth) = (sampler.drawsFace, sampler.smooth)
    // The map's numerators and denominator at a subpixel's (¼, ¼), and
    // their steps to its (¾, ¼) and to its (¼, ¾).
    let (halfX, halfY) = (0.5 * pointsPerSX, 0.5 * pointsPerSY)
    let (acrossU, acrossV, acrossW) = (m.0 * halfX, m.3 * halfX, m.6 * halfX)
    let (downU, downV, downW) = (m.1 * halfY, m.4 * halfY, m.7 * halfY)
    // One sample of the face where the map's numerators and denominator are
    // `u`, `v` and `w`.
    @inline(__always)
    func sample(
      _ u: Double, _ v: Double, _ w: Double
    ) -> (TerminalColor, TerminalCardFace.Material, Double)? {
      guard abs(w) > 1e-12 else { return nil }
      let r = 1 / w
      return sampler.shade(u * r, v * r)
    }
    colors.withUnsafeMutableBufferPointer { colors in
      materials.withUnsafeMutableBufferPointer { materials in
        glow.withUnsafeMutableBufferPointer { glow in
          coverage.withUnsafeMutableBufferPointer { coverage in
            for (sx, sy) in edges {
              let i = sy * subW + sx
              var sum = TerminalColor(0, 0, 0)
              var hits = 0
              var glowSum = 0.0
              var counts = (0, 0, 0)
              guard drawsFace else {
                coverage[i] = 0
                colors[i] = nil
                materials[i] = nil
                continue
              }
              let vx = (Double(sx) + 0.25 - centreX) * pointsPerSX
              let vy = (Double(sy) + 0.25 - centreY) * pointsPerSY
              let u0 = m.0 * vx + m.1 * vy + m.2
              let v0 = m.3 * vx + m.4 * vy + m.5
              let w0 = m.6 * vx + m.7 * vy + m.8
              if smooth,
                let (n, c, s) = sampler.edgeSubpixel(
                  u0, v0, w0, across: (acrossU, acrossV, acrossW), down: (downU, downV, downW))
              {
                coverage[i] = Double(n) / 4
                colors[i] = n > 0 ? c : nil
                materials[i] = n > 0 ? .face : nil
                if n > 0 { glow[i] = s }
                continue
              }
              // At (¼, ¼), (¾, ¼), (¼, ¾) and (¾, ¾) of the subpixel.
              for j in 0..<4 {
                let (a, d) = (j & 1 == 0 ? 0.0 : 1.0, j < 2 ? 0.0 : 1.0)
                guard
                  let (c, material, s) = sample(
                    u0 + a * acrossU + d * downU, v0 + a * acrossV + d * downV,
                    w0 + a * acrossW + d * downW)
                else { continue }
                sum = TerminalColor(sum.r + c.r, sum.g + c.g, sum.b + c.b)
                glowSum += s
                switch material {
                case .face: counts.0 += 1
                case .chip: counts.1 += 1
                case .code: counts.2 += 1
                }
                hits += 1
              }
              coverage[i] = Double(hits) / 4
              if hits > 0 {
                colors[i] = sum.scaled(1 / Double(hits))
                glow[i] = glowSum / Double(hits)
                materials[i] =
                  counts.0 >= counts.1 && counts.0 >= counts.2
                  ? .face : (counts.1 >= counts.2 ? .chip : .code)
              } else {
                colors[i] = nil
                materials[i] = nil
              }
            }
          }
        }
      }
    }
  }
}
