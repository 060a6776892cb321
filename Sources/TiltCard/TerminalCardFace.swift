import Foundation

/// The card's two faces as the page draws them (``HTMLRenderer``), in face
/// points (origin at the centre, x right, y down), for the terminal: the
/// colour of any point of a face, and the lines of text each face carries.
///
/// Front: a violet gradient, the gold chip top left, "TILT" top right, the
/// title and its line bottom left. Back: a teal gradient, the code top right,
/// the number and "Valid to 12/2026" bottom left. Both in the page's
/// continuous (superellipse) corners with a light hairline edge.
struct TerminalCardFace {
  var width: Double { didSet { derive() } }
  var height: Double { didSet { derive() } }

  init(width: Double, height: Double) {
    self.width = width
    self.height = height
    derive()
  }

  /// What each point's colour needs of the size, derived once: the corner,
  /// and the reciprocals that the gradient and the sheen multiply by.
  private mutating func derive() {
    cornerExtent = Self.cornerExtent(self)
    halfWidth = width / 2
    halfHeight = height / 2
    inverseWidth = 1 / width
    inverseHeight = 1 / height
    aspect = width / height
    inverseDiagonal = 1 / (aspect + 1)
    // The sheen's radius: the farthest corner of a 1.6·max(w, h) square.
    inverseSheenRadius = 1 / (1.6 * max(width, height) / 2 * 2.0.squareRoot())
    let left = -width / 2 + 0.1 * height
    let top = -height / 2 + 0.1 * height
    chip = (left, top, left + 0.2 * height, top + 0.15 * height)
    let right = width / 2 - 0.1 * height
    code = (right - 0.36 * height, top, right, top + 0.36 * height)
  }

  private var halfWidth = 0.0
  private var halfHeight = 0.0
  private var inverseWidth = 0.0
  private var inverseHeight = 0.0
  private var aspect = 0.0
  private var inverseDiagonal = 0.0
  private var inverseSheenRadius = 0.0

  /// What a point of a face is made of; text is drawn only over `.face`.
  enum Material: UInt8 {
    case face
    case chip
    case code
  }

  // The page's colours (HTMLPageTemplate.swift).
  static let frontGradient = (TerminalColor(hex: 0x4F46E5), TerminalColor(hex: 0x7C3AED))
  static let backGradient = (TerminalColor(hex: 0x0D9488), TerminalColor(hex: 0x10B981))
  static let chipColors = (
    TerminalColor(hex: 0xFDE68A), TerminalColor(hex: 0xFACC15), TerminalColor(hex: 0xEAB308)
  )
  static let chipLine = TerminalColor(120, 80, 0)
  static let codeInk = TerminalColor(hex: 0x0F3D3A)

  /// The corners' size at least (points): on a small screen the page's
  /// corner would be a notch of one subpixel, so the canvas asks for one
  /// that spans a few subpixels (``TerminalCanvas``).
  var minimumCornerExtent = 0.0 { didSet { derive() } }

  /// How far each corner's curve runs along the edges: the page's (2.1 × its
  /// radius of 0.12 × the shorter side), or ``minimumCornerExtent``. Kept,
  /// not derived at each point.
  private(set) var cornerExtent = 0.0

  private static func cornerExtent(_ f: TerminalCardFace) -> Double {
    let short = min(f.width, f.height)
    return min(max(2.1 * 0.12 * short, f.minimumCornerExtent), short / 2)
  }

  /// Whether (`u`, `v`) is inside the face's outline: the page's rounded
  /// rectangle with superellipse corners, |x|⁵ + |y|⁵ ≤ 1 in each corner.
  @inline(__always)
  func contains(_ u: Double, _ v: Double) -> Bool {
    let (au, av) = (abs(u), abs(v))
    guard au <= halfWidth, av <= halfHeight else { return false }
    // Past where the corner's curve starts, along both edges: the curve.
    let e = cornerExtent
    let (x, y) = (au - (halfWidth - e), av - (halfHeight - e))
    guard x > 0, y > 0 else { return true }
    let dx = x / e
    let dy = y / e
    let p = dx * dx * dx * dx * dx + dy * dy * dy * dy * dy
    return p <= 1
  }

  /// The chip's rectangle (front): left and top 0.1·height in, 0.2 × 0.15 height.
  private(set) var chip = (x0: 0.0, y0: 0.0, x1: 0.0, y1: 0.0)

  /// The code's square (back): right and top 0.1·height in, 0.36·height a side.
  private(set) var code = (x0: 0.0, y0: 0.0, x1: 0.0, y1: 0.0)

  /// What the gradient of one side needs, derived once for a frame: its
  /// colour at a point away from the chip (front) or the code (back), and
  /// the rectangle of that inset.
  struct Plane {
    let start: TerminalColor
    /// The gradient's end minus its start.
    let delta: TerminalColor
    let inverseWidth: Double
    let inverseHeight: Double
    let aspect: Double
    let inverseDiagonal: Double
    let inset: (x0: Double, y0: Double, x1: Double, y1: Double)

    /// The gradient's colour at (`u`, `v`): ``TerminalColor/mix(_:_:_:)`` of its ends.
    @inline(__always)
    func color(_ u: Double, _ v: Double) -> TerminalColor {
      let x = u * inverseWidth + 0.5
      let y = v * inverseHeight + 0.5
      let t = min(max((x * aspect + y) * inverseDiagonal, 0), 1)
      return TerminalColor(start.r + delta.r * t, start.g + delta.g * t, start.b + delta.b * t)
    }

    /// Whether (`u`, `v`) is in the inset's rectangle.
    @inline(__always)
    func inInset(_ u: Double, _ v: Double) -> Bool {
      u >= inset.x0 && u <= inset.x1 && v >= inset.y0 && v <= inset.y1
    }
  }

  /// The plane of `face`.
  func plane(_ face: CardFace) -> Plane {
    let (a, b) = face == .front ? Self.frontGradient : Self.backGradient
    return Plane(
      start: a, delta: TerminalColor(b.r - a.r, b.g - a.g, b.b - a.b), inverseWidth: inverseWidth,
      inverseHeight: inverseHeight, aspect: aspect, inverseDiagonal: inverseDiagonal,
      inset: face == .front ? chip : code)
  }

  /// The colour of `face`'s gradient at (`u`, `v`).
  @inline(__always)
  func gradient(_ face: CardFace, _ u: Double, _ v: Double) -> TerminalColor {
    let (a, b) = face == .front ? Self.frontGradient : Self.backGradient
    let x = u * inverseWidth + 0.5
    let y = v * inverseHeight + 0.5
    let t = min(max((x * aspect + y) * inverseDiagonal, 0), 1)
    return TerminalColor.mix(a, b, t)
  }

  /// The colour at (`u`, `v`) of `face`, before light and shade, and what is
  /// there; `nil` outside the outline.
  @inline(__always)
  func paint(_ face: CardFace, _ u: Double, _ v: Double) -> (TerminalColor, Material)? {
    guard contains(u, v) else { return nil }
    return paintInside(face, u, v)
  }

  /// ``paint(_:_:_:)`` at a point known to be inside the outline.
  @inline(__always)
  func paintInside(_ face: CardFace, _ u: Double, _ v: Double) -> (TerminalColor, Material) {
    let h = height
    if face == .front {
      let c = chip
      if u >= c.x0, u <= c.x1, v >= c.y0, v <= c.y1,
        Self.insideRounded(u, v, c, radius: 0.03 * h)
      {
        let (cw, ch) = (c.x1 - c.x0, c.y1 - c.y0)
        let t = Self.diagonal((u - c.x0) / cw, (v - c.y0) / ch, aspect: cw / ch)
        let (a, b, d) = Self.chipColors
        var color =
          t < 0.45 ? TerminalColor.mix(a, b, t / 0.45) : TerminalColor.mix(b, d, (t - 0.45) / 0.55)
        // The contacts: two vertical lines at a third and two thirds, one across.
        let line = max(0.045 * cw, 1.2)
        let x = u - c.x0
        let y = v - c.y0
        if abs(x - cw / 3) < line || abs(x - 2 * cw / 3) < line || abs(y - 0.48 * ch) < line {
          color = TerminalColor.mix(color, Self.chipLine, 0.5)
        }
        return (color, .chip)
      }
    } else {
      let c = code
      if u >= c.x0, u <= c.x1, v >= c.y0, v <= c.y1,
        Self.insideRounded(u, v, c, radius: 0.035 * h)
      {
        let pad = 0.025 * h
        let side = (c.x1 - c.x0) - 2 * pad
        let mx = Int(((u - c.x0 - pad) / side * Double(CardCode.size)).rounded(.down))
        let my = Int(((v - c.y0 - pad) / side * Double(CardCode.size)).rounded(.down))
        let on = CardCode.module(x: mx, y: my)
        return (on ? Self.codeInk : .white, .code)
      }
    }
    return (gradient(face, u, v), .face)
  }

  /// Where (`x`, `y`) in 0…1 of a box falls on a CSS `linear-gradient(135deg, …)`
  /// of that box, 0 (top left) … 1 (bottom right).
  @inline(__always)
  static func diagonal(_ x: Double, _ y: Double, aspect: Double) -> Double {
    // The gradient line runs toward the bottom right at 45°; its length is
    // (w + h)·sin 45°, so in box units the position is (x·w + y·h) / (w + h).
    let t = (x * aspect + y) / (aspect + 1)
    return min(max(t, 0), 1)
  }

  @inline(__always)
  static func insideRounded(
    _ u: Double, _ v: Double, _ r: (x0: Double, y0: Double, x1: Double, y1: Double),
    radius: Double
  ) -> Bool {
    let dx = max(r.x0 + radius - u, u - (r.x1 - radius), 0)
    let dy = max(r.y0 + radius - v, v - (r.y1 - radius), 0)
    return dx * dx + dy * dy <= radius * radius
  }

  /// The sheen's opacity at (`u`, `v`): the page's radial gradient, white 0.30
  /// at (`sheenX`, `sheenY`), 0.08 at 28 % and nothing from 50 % of its
  /// radius (farthest corner of a 1.6·max(w, h) square).
  @inline(__always)
  func sheen(_ u: Double, _ v: Double, x: Double, y: Double) -> Double {
    Self.sheen(at: sheenDistance(u, v, x: x, y: y))
  }

  /// How far (`u`, `v`) is from the sheen's centre (`x`, `y`), in its radii.
  @inline(__always)
  func sheenDistance(_ u: Double, _ v: Double, x: Double, y: Double) -> Double {
    let dx = u - x
    let dy = v - y
    return (dx * dx + dy * dy).squareRoot() * inverseSheenRadius
  }

  /// The sheen's opacity `d` radii from its centre: linear in `d` on
  /// 0…0.28, 0.28…0.5 and beyond (where it is 0).
  @inline(__always)
  static func sheen(at d: Double) -> Double {
    if d < 0.28 { return 0.30 - (0.22 / 0.28) * d }
    if d < 0.5 { return (0.08 / 0.22) * (0.5 - d) }
    return 0
  }

  /// The steepest the sheen falls, per radius.
  static let sheenSlope = 0.22 / 0.28

  /// The sheen's radius in points.
  var sheenRadius: Double { 1 / inverseSheenRadius }

  /// A line of text on a face: the first of `variants` that fits is drawn,
  /// upright, at the face point (`u`, `v`) (its left end, or its right end
  /// for `.right`), `v` the line's middle.
  struct TextLine {
    enum Alignment { case left, right }
    var variants: [String]
    var u: Double
    var v: Double
    var alignment: Alignment
    var bold: Bool
    /// The text's opacity over the face (the page's 0.82 and 0.85).
    var opacity: Double
  }

  /// The lines of `face`: on the front the brand, the title and its line; on
  /// the back the number and its line.
  func lines(
    _ face: CardFace, frontTitle: String, frontSubtitle: String, backTitle: String,
    backSubtitle: String
  ) -> [TextLine] {
    let (w, h) = (width, height)
    let left = -w / 2 + 0.1 * h
    let title = 0.5 * h - 0.31 * h
    let subtitle = 0.5 * h - 0.17 * h
    switch face {
    case .front:
      return [
        TextLine(
          variants: [frontTitle], u: left, v: title, alignment: .left, bold: true, opacity: 1),
        TextLine(
          variants: Self.shorter(frontSubtitle), u: left, v: subtitle, alignment: .left,
          bold: false, opacity: 0.82),
        TextLine(
          variants: ["T I L T", "TILT"], u: w / 2 - 0.1 * h, v: -h / 2 + 0.1 * h + 0.035 * h,
          alignment: .right, bold: true, opacity: 0.85),
      ]
    case .back:
      return [
        TextLine(
          variants: [backTitle], u: left, v: title, alignment: .left, bold: true, opacity: 1),
        TextLine(
          variants: Self.shorter(backSubtitle), u: left, v: subtitle, alignment: .left,
          bold: false, opacity: 0.82),
      ]
    }
  }

  /// `text`, then the shorter forms it can take without cutting a word: the
  /// part after the last " · ", or before it.
  static func shorter(_ text: String) -> [String] {
    var out = [text]
    if let r = text.range(of: " · ", options: .backwards) {
      out.append(String(text[r.upperBound...]))
      out.append(String(text[..<r.lowerBound]))
    }
    return out
  }
}
