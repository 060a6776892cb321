import Foundation

/// The card's face as the canvas samples it: a subpixel's point of the face
/// (through the inverse of the frame's map), and the face's colour,
/// material and sheen there, lit.
///
/// A class: the canvas's passes call it from closures over their buffers,
/// and there a struct this size was copied whole at each sample (some 7 %
/// more instructions a frame at 120 × 40, by callgrind).
final class TerminalFaceSampler {
  let face: TerminalCardFace
  let plane: TerminalCardFace.Plane
  let cardFace: CardFace
  let smooth: Bool
  /// The face's light (1 − 0.6 · shade) and its sheen's centre.
  let light: Double
  let sheenX: Double
  let sheenY: Double
  /// Half the face's width and height, the outline's rim and the corners'
  /// extent, in points.
  let hw: Double
  let hh: Double
  let rim: Double
  let extent: Double
  /// Inside these the face has no outline or hairline (and no corner
  /// where both hold).
  let innerU: Double
  let innerV: Double
  let cornerU: Double
  let cornerV: Double
  /// Whether the frame's map has an inverse (the face is drawn at all), and
  /// the inverse: view point to face point.
  let drawsFace: Bool
  let m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)
  /// Subpixel coordinates to view points, as products (no division).
  let pointsPerSX: Double
  let pointsPerSY: Double
  /// The card's centre in subpixels.
  let centreX: Double
  let centreY: Double
  /// The sheen's reciprocal radius (points), and the most the gradient's
  /// position changes per point, 2 / (w + h).
  let inverseSheenRadius: Double
  let gradientSlope: Double
  /// Within these of |u| (or of |v|) the outline is straight along the top
  /// and bottom (the left and right), a hairline and a margin to spare.
  let straightU: Double
  let straightV: Double

  /// `face` with `frame`'s map, lighting and sheen, drawn at `scale`
  /// columns a point about (`centreX`, `centreY`).
  init(
    face: TerminalCardFace, frame: CardFrame, scale: Double, centreX: Double, centreY: Double,
    smooth: Bool
  ) {
    let x = frame.extras
    self.face = face
    self.cardFace = frame.face
    self.smooth = smooth
    light = 1 - 0.6 * x.shade
    (sheenX, sheenY) = (x.sheenX, x.sheenY)
    let inverse = Homography(frame.transform).inverse
    drawsFace = inverse != nil
    m = inverse?.m ?? (0, 0, 0, 0, 0, 0, 0, 0, 0)
    // Subpixel (sx, sy) centre → view points: x 2·scale subpixels a point, y scale.
    (pointsPerSX, pointsPerSY) = (1 / (2 * scale * x.lift), 1 / (scale * x.lift))
    rim = 0.7 / scale  // points: about 0.7 of a cell width
    (hw, hh) = (face.width / 2, face.height / 2)
    extent = face.cornerExtent
    plane = face.plane(frame.face)
    (innerU, innerV) = (hw - rim, hh - rim)
    (cornerU, cornerV) = (hw - extent, hh - extent)
    self.centreX = centreX
    self.centreY = centreY
    inverseSheenRadius = 1 / face.sheenRadius
    gradientSlope = 2 / (face.width + face.height)
    straightU = hw - extent - rim - 1e-6
    straightV = hh - extent - rim - 1e-6
  }

  /// One sample of the face at face point (u, v): `face.paint` (whose
  /// gradient is the plane's) lit.
  @inline(__always)
  func shade(_ u: Double, _ v: Double) -> (TerminalColor, TerminalCardFace.Material, Double)? {
    let (au, av) = (abs(u), abs(v))
    if au <= innerU && av <= innerV && (au <= cornerU || av <= cornerV) && !plane.inInset(u, v) {
      // The plain inside: no outline, hairline or inset here.
      let s = face.sheen(u, v, x: sheenX, y: sheenY)
      return (plane.color(u, v).screened(s).scaled(light), .face, s)
    }
    guard face.contains(u, v) else { return nil }
    var c = plane.color(u, v)
    var material = TerminalCardFace.Material.face
    if plane.inInset(u, v) {
      (c, material) = face.paintInside(cardFace, u, v)
    }
    let nearEdge =
      au > hw - rim || av > hh - rim || (au > hw - extent && av > hh - extent)
    if smooth && material == .face && nearEdge {
      // The page's hairline edge, as wide as the terminal can show it.
      if !face.contains(au + rim, av) || !face.contains(au, av + rim) {
        c = TerminalColor.mix(c, .white, 0.22)
      }
    }
    let s = face.sheen(u, v, x: sheenX, y: sheenY)
    return (c.screened(s).scaled(light), material, s)
  }
}
