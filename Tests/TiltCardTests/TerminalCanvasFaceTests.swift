import Attitude
import Foundation
import Testing

@testable import TiltCard

/// The face's pass (sampled every few subpixels along a run inside, linear
/// between) beside the face sampled at the middle of every subpixel: the
/// same material and coverage everywhere, the colour within half a step.
@Suite struct TerminalCanvasFaceTests {
  func frame(_ k: Int) -> CardFrame { TestSupport.swingingFrame(k, perSecond: 7) }

  /// The face's pass of `frame` on a canvas of `columns` × `rows` cells,
  /// sampled as the canvas samples it, into buffers of its own.
  struct FacePass {
    let sampler: TerminalFaceSampler
    let box: TerminalCanvas.Window
    var colors: [TerminalColor?]
    var materials: [TerminalCardFace.Material?]
    var glow: [Double]
    var coverage: [Double]

    init(_ frame: CardFrame, columns: Int, rows: Int, smooth: Bool) {
      (sampler, box, _) = TerminalCanvas.faceSampler(
        frame, face: TerminalCardFace(width: 340, height: 220), columns: columns, rows: rows,
        smooth: smooth)
      let count = 4 * columns * rows
      colors = [TerminalColor?](repeating: nil, count: count)
      materials = [TerminalCardFace.Material?](repeating: nil, count: count)
      glow = [Double](repeating: 0, count: count)
      coverage = [Double](repeating: 0, count: count)
      TerminalCanvas.drawFace(
        sampler, in: box, width: 2 * columns, colors: &colors, materials: &materials,
        glow: &glow, coverage: &coverage)
    }
  }

  @Test(arguments: [(200, 60), (120, 40), (80, 24), (40, 12)])
  func insideIsTheFaceSampledAtEachSubpixel(size: (Int, Int)) {
    let (columns, rows) = size
    var worst = 0.0
    for k in 0..<30 {
      let pass = FacePass(frame(k), columns: columns, rows: rows, smooth: k % 2 == 0)
      let (sampler, box, subW) = (pass.sampler, pass.box, 2 * columns)
      let (centreX, centreY) = (sampler.centreX, sampler.centreY)
      let (colors, materials, glow, coverage) = (
        pass.colors, pass.materials, pass.glow, pass.coverage
      )
      let m = sampler.m
      for sy in box.y0..<box.y1 {
        for sx in box.x0..<box.x1 {
          let vx = (Double(sx) + 0.5 - centreX) * sampler.pointsPerSX
          let vy = (Double(sy) + 0.5 - centreY) * sampler.pointsPerSY
          let w = m.6 * vx + m.7 * vy + m.8
          let expected =
            sampler.drawsFace && abs(w) > 1e-12
            ? sampler.shade((m.0 * vx + m.1 * vy + m.2) / w, (m.3 * vx + m.4 * vy + m.5) / w)
            : nil
          let i = sy * subW + sx
          #expect(materials[i] == expected?.1, "frame \(k), subpixel (\(sx), \(sy))")
          #expect(coverage[i] == (expected == nil ? 0 : 1))
          if let (c, _, s) = expected, let got = colors[i] {
            worst = max(worst, abs(got.r - c.r), abs(got.g - c.g), abs(got.b - c.b))
            #expect(abs(glow[i] - s) < 0.5 / 255)
          } else {
            #expect(colors[i] == nil && expected == nil)
          }
        }
      }
    }
    #expect(worst <= 0.5)
  }

  /// The outline's pass in 24-bit colour (a subpixel of the plain face
  /// classed by its samples, its colour found once) beside each edge
  /// subpixel's 2 × 2 samples averaged: the same material and coverage,
  /// the colour and sheen within a quarter of a step.
  @Test(arguments: [(200, 60), (120, 40), (80, 24), (40, 12)])
  func edgesAreTheirSamplesAveraged(size: (Int, Int)) {
    let (columns, rows) = size
    var (worst, edgeCount) = (0.0, 0)
    for k in 0..<30 {
      var pass = FacePass(frame(k), columns: columns, rows: rows, smooth: true)
      let (sampler, box, subW) = (pass.sampler, pass.box, 2 * columns)
      let (centreX, centreY) = (sampler.centreX, sampler.centreY)
      let edges = TerminalCanvas.edges(of: pass.materials, in: box, width: subW, height: 2 * rows)
      TerminalCanvas.sampleEdges(
        edges, sampler, width: subW, colors: &pass.colors, materials: &pass.materials,
        glow: &pass.glow, coverage: &pass.coverage)
      let (colors, materials, glow, coverage) = (
        pass.colors, pass.materials, pass.glow, pass.coverage
      )
      edgeCount += edges.count
      let m = sampler.m
      let (hx, hy) = (0.5 * sampler.pointsPerSX, 0.5 * sampler.pointsPerSY)
      for (sx, sy) in edges {
        let vx = (Double(sx) + 0.25 - centreX) * sampler.pointsPerSX
        let vy = (Double(sy) + 0.25 - centreY) * sampler.pointsPerSY
        let (u0, v0, w0) = (
          m.0 * vx + m.1 * vy + m.2, m.3 * vx + m.4 * vy + m.5, m.6 * vx + m.7 * vy + m.8
        )
        var samples: [(TerminalColor, TerminalCardFace.Material, Double)] = []
        for j in 0..<4 {
          let (a, d) = (j & 1 == 0 ? 0.0 : 1.0, j < 2 ? 0.0 : 1.0)
          let w = w0 + a * m.6 * hx + d * m.7 * hy
          guard sampler.drawsFace && abs(w) > 1e-12 else { continue }
          let r = 1 / w
          if let sample = sampler.shade(
            (u0 + a * m.0 * hx + d * m.1 * hy) * r, (v0 + a * m.3 * hx + d * m.4 * hy) * r)
          {
            samples.append(sample)
          }
        }
        let i = sy * subW + sx
        #expect(coverage[i] == Double(samples.count) / 4, "frame \(k), subpixel (\(sx), \(sy))")
        guard !samples.isEmpty, let got = colors[i] else {
          #expect(samples.isEmpty && colors[i] == nil && materials[i] == nil)
          continue
        }
        let n = Double(samples.count)
        let faces = samples.filter { $0.1 == .face }.count
        if faces == samples.count { #expect(materials[i] == .face) }
        let mean = samples.reduce(TerminalColor(0, 0, 0)) {
          TerminalColor($0.r + $1.0.r / n, $0.g + $1.0.g / n, $0.b + $1.0.b / n)
        }
        worst = max(worst, abs(got.r - mean.r), abs(got.g - mean.g), abs(got.b - mean.b))
        #expect(abs(glow[i] - samples.reduce(0) { $0 + $1.2 / n }) < 0.25 / 255)
      }
    }
    #expect(edgeCount > 0)
    #expect(worst <= 0.25 + 1e-9)
  }
}
