import Foundation

/// An edge subpixel of the plain face in 24-bit colour: its 2 × 2 samples
/// tested for where they fall, its colour and sheen found once.
extension TerminalFaceSampler {
  /// How far (0…255 a channel) an edge subpixel's colour may stray from
  /// its samples' mean.
  static let edgeTolerance = 0.25

  /// The colour and sheen of an edge subpixel whose samples on the face are
  /// `plain` of the plain class about (`plainU`, `plainV`) and `hairline`
  /// of the hairline's about (`hairU`, `hairV`), the most any is from their
  /// centre (`meanU`, `meanV`) under `spread`: within ``edgeTolerance`` of
  /// the mean of their ``shade(_:_:)``, or `nil` where that is not sure.
  ///
  /// The gradient is linear in the face point (its clamp never reached on
  /// the face) and so is the hairline's mix: the samples' mean colour before
  /// the sheen is the mean of each class's colour at its centre. The sheen
  /// is linear in its distance on each piece; where all samples are on one
  /// piece, the sheen at a sample is the sheen at the centre plus its
  /// gradient g times the offset, plus at most slope · L² / (2 · dist ·
  /// radius) (L the offset, dist the distance from the sheen's centre
  /// nearest the samples). The screen's product of the linear part with each
  /// sample's colour is, over the samples, the two classes' share of it
  /// (p·h/n² · (plain − hairline colour) · g·(plain − hairline centre)) and
  /// within a class at most 255 · L · |∇t| · slope · L / radius.
  @inline(__always)
  func edgeColor(
    meanU: Double, meanV: Double, spread: Double, plain: Int, plainU: Double, plainV: Double,
    hairline: Int, hairU: Double, hairV: Double
  ) -> (TerminalColor, Double)? {
    let dx = meanU - sheenX
    let dy = meanV - sheenY
    let dist = (dx * dx + dy * dy).squareRoot()
    let d = dist * inverseSheenRadius
    let near = dist - spread
    // The sheen's change per radius on the centre's piece.
    var slope = 0.0
    if near * inverseSheenRadius < 0.5 {
      let delta = spread * inverseSheenRadius
      guard near > spread, abs(d - 0.28) > delta, abs(d - 0.5) > delta else { return nil }
      // 255 · slope · L² · (1 / (2 · near) + |∇t|) / radius ≤ tolerance.
      let bound =
        255 * TerminalCardFace.sheenSlope * spread * spread * inverseSheenRadius
        * (1 + 2 * near * gradientSlope)
      guard bound <= Self.edgeTolerance * 2 * near else { return nil }
      slope = d < 0.28 ? -TerminalCardFace.sheenSlope : (d < 0.5 ? -0.08 / 0.22 : 0)
    }
    let s = TerminalCardFace.sheen(at: d)
    var c: TerminalColor
    if hairline == 0 {
      c = plane.color(plainU, plainV)
    } else {
      let h = TerminalColor.mix(plane.color(hairU, hairV), .white, 0.22)
      c = h
      if plain > 0 {
        let p = plane.color(plainU, plainV)
        let n = Double(plain + hairline)
        c = TerminalColor.mix(h, p, Double(plain) / n)
        // The classes' share of the screen's product: the sheen's change
        // from the hairline's centre to the plain one's, by the colours'.
        let g = slope * inverseSheenRadius / dist
        let change = g * (dx * (plainU - hairU) + dy * (plainV - hairV))
        let k = -Double(plain * hairline) / (n * n) * change
        let screened = c.screened(s)
        return (
          TerminalColor(
            screened.r + k * (p.r - h.r), screened.g + k * (p.g - h.g),
            screened.b + k * (p.b - h.b)
          ).scaled(light), s
        )
      }
    }
    return (c.screened(s).scaled(light), s)
  }

  /// An edge subpixel's 2 × 2 samples where the map's numerators and
  /// denominator are (`u`, `v`, `w`) at the first, plus the steps `across`
  /// and `down` at the others: how many fall on the face, and its colour
  /// and sheen; `nil` where this cannot say (see
  /// ``edgeColor(meanU:meanV:spread:plain:plainU:plainV:hairline:hairU:hairV:)``)
  /// or where the samples come near the inset.
  ///
  /// Along the top or bottom side (|u| a hairline and a margin short of
  /// where the corners start) the tests of ``shade(_:_:)`` come to |v|
  /// alone: off past half the height, plain within the hairline's inner
  /// edge, and else under the hairline where |v| + rim is past half the
  /// height; along the left or right side, the same of |u|. Each is the
  /// comparison ``shade(_:_:)`` makes, so the classes are the same.
  /// Elsewhere its tests but the inset's.
  @inline(never)
  func edgeSubpixel(
    _ u: Double, _ v: Double, _ w: Double, across: (Double, Double, Double),
    down: (Double, Double, Double)
  ) -> (hits: Int, color: TerminalColor, glow: Double)? {
    let w1 = w + across.2
    let (w2, w3) = (w + down.2, w1 + down.2)
    guard min(abs(w), abs(w1), abs(w2), abs(w3)) > 1e-12 else { return nil }
    let (u1, v1) = (u + across.0, v + across.1)
    // As the samples of `TerminalCanvas.sampleEdges` are found.
    let r = (1 / w, 1 / w1, 1 / w2, 1 / w3)
    let us = (u * r.0, u1 * r.1, (u + down.0) * r.2, (u1 + down.0) * r.3)
    let vs = (v * r.0, v1 * r.1, (v + down.1) * r.2, (v1 + down.1) * r.3)
    let (minU, maxU) = (min(us.0, us.1, us.2, us.3), max(us.0, us.1, us.2, us.3))
    let (minV, maxV) = (min(vs.0, vs.1, vs.2, vs.3), max(vs.0, vs.1, vs.2, vs.3))
    // All past a side of the face's rectangle: all off it.
    if minU > hw || maxU < -hw || minV > hh || maxV < -hh {
      return (0, TerminalColor(0, 0, 0), 0)
    }
    let i = plane.inset
    let e = TerminalFaceSpans.pointMargin
    guard maxU < i.x0 - e || minU > i.x1 + e || maxV < i.y0 - e || minV > i.y1 + e else {
      return nil
    }
    // 0: along the top or bottom, 1: along the left or right, 2: elsewhere.
    let side = max(-minU, maxU) <= straightU ? 0 : (max(-minV, maxV) <= straightV ? 1 : 2)
    // Along a side: the coordinate across it, its bounds.
    let (half, inner) = side == 1 ? (hw, innerU) : (hh, innerV)
    var (plain, hairline) = (0, 0)
    var (plainU, plainV, hairU, hairV) = (0.0, 0.0, 0.0, 0.0)
    @inline(__always) func add(_ u: Double, _ v: Double) {
      let under: Bool
      if side < 2 {
        let a = abs(side == 1 ? u : v)
        guard a <= half else { return }
        under = !(a <= inner || a + rim <= half)
      } else {
        // The tests of `shade` but the inset's.
        let (au, av) = (abs(u), abs(v))
        if au <= innerU && av <= innerV && (au <= cornerU || av <= cornerV) {
          under = false
        } else {
          guard face.contains(u, v) else { return }
          under = !face.contains(au + rim, av) || !face.contains(au, av + rim)
        }
      }
      if under {
        hairline &+= 1
        (hairU, hairV) = (hairU + u, hairV + v)
      } else {
        plain &+= 1
        (plainU, plainV) = (plainU + u, plainV + v)
      }
    }
    add(us.0, vs.0)
    add(us.1, vs.1)
    add(us.2, vs.2)
    add(us.3, vs.3)
    let hits = plain + hairline
    guard hits > 0 else { return (0, TerminalColor(0, 0, 0), 0) }
    let n = 1 / Double(hits)
    let (p, h) = (1 / Double(max(plain, 1)), 1 / Double(max(hairline, 1)))
    guard
      let (c, s) = edgeColor(
        meanU: (plainU + hairU) * n, meanV: (plainV + hairV) * n,
        spread: (maxU - minU) + (maxV - minV), plain: plain, plainU: plainU * p,
        plainV: plainV * p, hairline: hairline, hairU: hairU * h, hairV: hairV * h)
    else { return nil }
    return (hits, c, s)
  }
}
