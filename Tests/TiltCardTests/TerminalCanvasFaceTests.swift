import Attitude
import Foundation
import Testing

@testable import TiltCard

/// The face's pass (sampled every few subpixels along a run inside, linear
/// between) beside the face sampled at the middle of every subpixel: the
/// same material and coverage everywhere, the colour within half a step.
@Suite struct TerminalCanvasFaceTests {
  /// Frame `k` of a tilt that swings the card about and turns it over.
  func frame(_ k: Int) -> CardFrame {
    let t = Double(k) / 7
    let motion = TestSupport.motion(at: t, pitch: 0.5 * sin(t * 2), roll: 0.45 * sin(t * 3))
    let flip = k % 10 < 6 ? 0 : Double(k % 10 - 5) * 36
    let config = CardConfiguration()
    return CardFrame(
      t: t, motion: motion, pose: CardPose(attitude: motion.attitude, configuration: config),
      flipAngle: flip, flipped: flip > 90, state: .active, configuration: config)
  }

  @Test(arguments: [(200, 60), (120, 40), (80, 24), (40, 12)])
  func insideIsTheFaceSampledAtEachSubpixel(size: (Int, Int)) {
    let (columns, rows) = size
    var worst = 0.0
    for k in 0..<30 {
      let frame = frame(k)
      var face = TerminalCardFace(width: 340, height: 220)
      let scale = min(
        Double(columns) / (face.width * 1.3), Double(2 * rows) / (face.height * 1.35))
      face.minimumCornerExtent = 5 / scale
      let (subW, subH) = (2 * columns, 2 * rows)
      let (centreX, centreY) = (Double(columns), Double(rows) * 0.98)
      let sampler = TerminalFaceSampler(
        face: face, frame: frame, scale: scale, centreX: centreX, centreY: centreY,
        smooth: k % 2 == 0)
      let box = TerminalCanvas.cardBox(
        frame, halfWidth: face.width / 2, halfHeight: face.height / 2, centreX: centreX,
        centreY: centreY, sxPerPoint: 2 * scale * frame.extras.lift,
        syPerPoint: scale * frame.extras.lift, width: subW, height: subH)
      let count = subW * subH
      var colors = [TerminalColor?](repeating: nil, count: count)
      var materials = [TerminalCardFace.Material?](repeating: nil, count: count)
      var glow = [Double](repeating: 0, count: count)
      var coverage = [Double](repeating: 0, count: count)
      TerminalCanvas.drawFace(
        sampler, in: box, width: subW, colors: &colors, materials: &materials, glow: &glow,
        coverage: &coverage)
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
      let frame = frame(k)
      var face = TerminalCardFace(width: 340, height: 220)
      let scale = min(
        Double(columns) / (face.width * 1.3), Double(2 * rows) / (face.height * 1.35))
      face.minimumCornerExtent = 5 / scale
      let (subW, subH) = (2 * columns, 2 * rows)
      let (centreX, centreY) = (Double(columns), Double(rows) * 0.98)
      let sampler = TerminalFaceSampler(
        face: face, frame: frame, scale: scale, centreX: centreX, centreY: centreY, smooth: true)
      let box = TerminalCanvas.cardBox(
        frame, halfWidth: face.width / 2, halfHeight: face.height / 2, centreX: centreX,
        centreY: centreY, sxPerPoint: 2 * scale * frame.extras.lift,
        syPerPoint: scale * frame.extras.lift, width: subW, height: subH)
      let count = subW * subH
      var colors = [TerminalColor?](repeating: nil, count: count)
      var materials = [TerminalCardFace.Material?](repeating: nil, count: count)
      var glow = [Double](repeating: 0, count: count)
      var coverage = [Double](repeating: 0, count: count)
      TerminalCanvas.drawFace(
        sampler, in: box, width: subW, colors: &colors, materials: &materials, glow: &glow,
        coverage: &coverage)
      let edges = TerminalCanvas.edges(of: materials, in: box, width: subW, height: subH)
      TerminalCanvas.sampleEdges(
        edges, sampler, width: subW, colors: &colors, materials: &materials, glow: &glow,
        coverage: &coverage)
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
