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
}
