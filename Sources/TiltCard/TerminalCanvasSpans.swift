import Foundation

/// Where along a row of subpixels the face is sure to be its plain inside:
/// the gradient and the sheen, away from the outline, its hairline, the
/// corners and the chip or code. Found from the row's projective map
/// (`u = U/W`, `v = V/W`, each of `U`, `V`, `W` linear in the subpixel `k`),
/// each bound on `u` or `v` a bound on `k`; a margin keeps every subpixel
/// of a span well inside, so the spans hold no subpixel that the test per
/// subpixel would not call inside.
struct TerminalFaceSpans {
  /// Runs `start..<end` of `k`, in order, not touching.
  private(set) var runs: [(start: Int, end: Int)] = []
  /// The subpixels `start..<end` of the row that may be on the face: those
  /// outside are off the rectangle that holds it.
  private(set) var outer: (start: Int, end: Int) = (0, 0)
  /// The runs before the inset is cut out of them.
  private var pieces: [(Int, Int)] = []

  /// The bounds of the inside: |u| ≤ `innerU` and |v| ≤ `innerV`, and
  /// |u| ≤ `cornerU` or |v| ≤ `cornerV`, or else |u| ≤ `squareU` and
  /// |v| ≤ `squareV` (a box whose corners are inside the corners' curves
  /// with the hairline's width to spare); never in `inset`.
  struct Bounds {
    var innerU: Double
    var innerV: Double
    var cornerU: Double
    var cornerV: Double
    var squareU: Double
    var squareV: Double
    /// Half the face's width and height: nothing is on it past them.
    var halfU: Double
    var halfV: Double
    var inset: (x0: Double, y0: Double, x1: Double, y1: Double)
  }

  /// How far inside its bounds a run stays, in subpixels and in points
  /// (far beyond the rounding of the test per subpixel).
  static let margin = 1e-3
  static let pointMargin = 1e-6

  /// The runs of `k` in `0..<count` for the map `U = u0 + k·stepU`,
  /// `V = v0 + k·stepV`, `W = w0 + k·stepW` (none where `W` comes near 0).
  mutating func find(
    u0: Double, v0: Double, w0: Double, stepU: Double, stepV: Double, stepW: Double, count: Int,
    bounds b: Bounds
  ) {
    runs.removeAll(keepingCapacity: true)
    outer = (0, count)
    guard count > 0 else { return }
    let last = Double(count - 1)
    // W of one sign along the row (it is linear): divide through by it.
    let sign: Double = w0 > 0 ? 1 : -1
    guard sign * w0 > 1e-9, sign * (w0 + last * stepW) > 1e-9 else { return }
    let (pu, qu) = (sign * u0, sign * stepU)
    let (pv, qv) = (sign * v0, sign * stepV)
    let (pw, qw) = (sign * w0, sign * stepW)
    // The k where lo ≤ P/W ≤ hi: P − hi·W ≤ 0 and lo·W − P ≤ 0, each linear in k.
    func within(
      _ p: Double, _ q: Double, _ lo: Double, _ hi: Double, _ range: inout (Double, Double)
    ) {
      Self.clip(&range, p - hi * pw, q - hi * qw)
      Self.clip(&range, lo * pw - p, lo * qw - q)
    }
    let e = Self.pointMargin
    let (innerU, innerV) = (b.innerU - e, b.innerV - e)
    let cornerU = min(b.cornerU, b.innerU) - e
    let cornerV = min(b.cornerV, b.innerV) - e
    var tall = (0.0, last)
    within(pu, qu, -cornerU, cornerU, &tall)
    within(pv, qv, -innerV, innerV, &tall)
    var wide = (0.0, last)
    within(pu, qu, -innerU, innerU, &wide)
    within(pv, qv, -cornerV, cornerV, &wide)
    var square = (0.0, last)
    within(pu, qu, -(b.squareU - e), b.squareU - e, &square)
    within(pv, qv, -(b.squareV - e), b.squareV - e, &square)
    var rectangle = (0.0, last)
    within(pu, qu, -(b.halfU + e), b.halfU + e, &rectangle)
    within(pv, qv, -(b.halfV + e), b.halfV + e, &rectangle)
    outer =
      rectangle.0 <= rectangle.1
      ? (
        max(Int((rectangle.0 - Self.margin).rounded(.down)), 0),
        min(Int((rectangle.1 + Self.margin).rounded(.up)) + 1, count)
      ) : (0, 0)
    var inset = (0.0, last)
    within(pu, qu, b.inset.x0 - e, b.inset.x1 + e, &inset)
    within(pv, qv, b.inset.y0 - e, b.inset.y1 + e, &inset)
    // Whole subpixels inside each, by the margin; the inset's, outside.
    func inner(_ r: (Double, Double)) -> (Int, Int) {
      guard r.0 <= r.1 else { return (0, 0) }
      let start = Int((r.0 + Self.margin).rounded(.up))
      let end = Int((r.1 - Self.margin).rounded(.down)) + 1
      return start < end ? (start, end) : (0, 0)
    }
    // The three as runs in order, those that overlap or touch joined.
    var (a, b, c) = (inner(tall), inner(wide), inner(square))
    if b.0 < a.0 { swap(&a, &b) }
    if c.0 < b.0 { swap(&b, &c) }
    if b.0 < a.0 { swap(&a, &b) }
    pieces.removeAll(keepingCapacity: true)
    for piece in [a, b, c] where piece.0 < piece.1 {
      if let last = pieces.last, piece.0 <= last.1 {
        pieces[pieces.count - 1].1 = max(last.1, piece.1)
      } else {
        pieces.append(piece)
      }
    }
    let cut =
      inset.0 <= inset.1
      ? (
        max(Int((inset.0 - Self.margin).rounded(.down)), 0),
        min(Int((inset.1 + Self.margin).rounded(.up)) + 1, count)
      ) : (0, 0)
    for (start, end) in pieces {
      if cut.0 < cut.1 && cut.0 < end && cut.1 > start {
        if start < cut.0 { runs.append((start, cut.0)) }
        if cut.1 < end { runs.append((cut.1, end)) }
      } else {
        runs.append((start, end))
      }
    }
  }

  /// Narrows `range` to the k where `a + b·k ≤ 0`.
  private static func clip(_ range: inout (Double, Double), _ a: Double, _ b: Double) {
    if b > 0 {
      range.1 = min(range.1, -a / b)
    } else if b < 0 {
      range.0 = max(range.0, -a / b)
    } else if a > 0 {
      range = (1, 0)
    }
  }
}
