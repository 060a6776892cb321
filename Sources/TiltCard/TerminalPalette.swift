import Foundation

/// A colour of the terminal drawing, sRGB 0…255 per channel, blended in sRGB
/// as CSS blends.
struct TerminalColor: Hashable, Sendable {
  var r: Double
  var g: Double
  var b: Double

  init(_ r: Double, _ g: Double, _ b: Double) {
    self.r = r
    self.g = g
    self.b = b
  }

  /// `0xRRGGBB`.
  init(hex: UInt32) {
    self.init(Double(hex >> 16 & 0xFF), Double(hex >> 8 & 0xFF), Double(hex & 0xFF))
  }

  /// `a` toward `b` by `t` (0 gives `a`).
  @inline(__always)
  static func mix(_ a: TerminalColor, _ b: TerminalColor, _ t: Double) -> TerminalColor {
    TerminalColor(a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t)
  }

  @inline(__always)
  func scaled(_ k: Double) -> TerminalColor { TerminalColor(r * k, g * k, b * k) }

  /// CSS `mix-blend-mode: screen` with white at opacity `alpha`.
  @inline(__always)
  func screened(_ alpha: Double) -> TerminalColor {
    TerminalColor(r + alpha * (255 - r), g + alpha * (255 - g), b + alpha * (255 - b))
  }

  func distanceSquared(to o: TerminalColor) -> Double {
    let (dr, dg, db) = (r - o.r, g - o.g, b - o.b)
    return dr * dr + dg * dg + db * db
  }

  /// Distance with the difference in lightness counted three times over the
  /// difference in colour (Cb, Cr): a palette colour as light as this one is
  /// nearer than one of the same hue but darker, so the sheen over a face
  /// comes out lighter, never as a darker ring (with plain RGB distance the
  /// violet face under the sheen took a darker blue).
  func hueWeightedDistance(to o: TerminalColor) -> Double {
    let dy = luma - o.luma
    let dcb = (b - luma) - (o.b - o.luma)
    let dcr = (r - luma) - (o.r - o.luma)
    return 3 * dy * dy + dcb * dcb + dcr * dcr
  }

  /// Rec. 709 luma, 0…255.
  var luma: Double { 0.2126 * r + 0.7152 * g + 0.0722 * b }

  var clamped: TerminalColor {
    func c(_ x: Double) -> Double { min(max(x, 0), 255) }
    return TerminalColor(c(r), c(g), c(b))
  }

  static let white = TerminalColor(255, 255, 255)
  static let black = TerminalColor(0, 0, 0)
}

/// What one cell's colour is written as, once the terminal's depth is known:
/// the terminal's own background, 24-bit, an xterm 256-colour index or one of
/// the 16 ANSI colours. Packed in one word, so that comparing two inks (done
/// for every cell of every frame) is one comparison.
struct TerminalInk: Hashable, Sendable {
  /// The kind in the top byte (``Kind``'s order), the channels or the index below.
  private let raw: UInt32

  private init(raw: UInt32) { self.raw = raw }

  /// The ink as its parts.
  enum Kind: Hashable {
    case terminalDefault
    case rgb(UInt8, UInt8, UInt8)
    case index256(UInt8)
    case ansi(UInt8)
  }

  static let terminalDefault = TerminalInk(raw: 0)

  @inline(__always)
  static func rgb(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> TerminalInk {
    TerminalInk(raw: 1 << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b))
  }

  @inline(__always)
  static func index256(_ i: UInt8) -> TerminalInk { TerminalInk(raw: 2 << 24 | UInt32(i)) }

  @inline(__always)
  static func ansi(_ i: UInt8) -> TerminalInk { TerminalInk(raw: 3 << 24 | UInt32(i)) }

  var kind: Kind {
    let byte = { (shift: UInt32) in UInt8(truncatingIfNeeded: self.raw >> shift) }
    switch raw >> 24 {
    case 1: return .rgb(byte(16), byte(8), byte(0))
    case 2: return .index256(byte(0))
    case 3: return .ansi(byte(0))
    default: return .terminalDefault
    }
  }

  /// Equal, or both 24-bit and no channel more than `tolerance` apart.
  @inline(__always)
  func isClose(to other: TerminalInk, tolerance: Int) -> Bool {
    if raw == other.raw { return true }
    guard tolerance > 0, raw >> 24 == 1, other.raw >> 24 == 1 else { return false }
    let (a, b) = (Int(raw), Int(other.raw))
    let r = abs((a >> 16 & 0xFF) - (b >> 16 & 0xFF))
    let g = abs((a >> 8 & 0xFF) - (b >> 8 & 0xFF))
    let bl = abs((a & 0xFF) - (b & 0xFF))
    return max(r, g, bl) <= tolerance
  }
}

/// The colours of each depth and how a colour is brought to them.
///
/// 256 colours: the nearest colour of the 6×6×6 cube (whose levels are not
/// evenly spaced: 0, 95, 135, 175, 215, 255) or, for a near-grey (the
/// backdrop, the shadow), of the 24-step grey ramp; by distance in RGB, all
/// three channels at once, so a hue never turns (a channel rounded on its own
/// turned the violet front blue), and a gradient or the sheen is a few flat
/// bands. Dithering between levels was tried: at two pixels a cell it is
/// noise, not a shade.
///
/// 16 colours: the hue decides the colour (``ansiHue(_:)``), so a shaded face
/// keeps it; the bright variant is taken where the sheen is strongest.
enum TerminalPalette {
  static let cubeLevels: [Double] = [0, 95, 135, 175, 215, 255]
  /// The xterm 256-colour index nearest to `c`; with `under`, the face
  /// that `c` is `under` screened by `glow` (the sheen), one no darker than
  /// the face under less of the sheen comes out, so the sheen brightens
  /// steadily toward its middle, never through a darker ring.
  static func index256(_ c: TerminalColor, under: TerminalColor? = nil, glow: Double = 0)
    -> UInt8
  {
    index256(
      c, under: under, glow: glow, nearest: nearest256, luma: { luma256[Int($0)] },
      above: { index256($0, floor: luma256[Int($1)]) })
  }

  /// ``index256(_:under:glow:)`` with `nearest` for the nearest index of a
  /// colour (the search, or ``TerminalPaletteTable``'s lookup), `luma` for
  /// an index's luma (``luma256``) and `above` for the nearest no darker
  /// than an index (``index256(_:floor:)`` with its luma).
  @inline(__always)
  static func index256(
    _ c: TerminalColor, under: TerminalColor?, glow: Double, nearest: (TerminalColor) -> UInt8,
    luma: (UInt8) -> Double, above: (TerminalColor, UInt8) -> UInt8
  ) -> UInt8 {
    let plain = nearest(c)
    guard let under else { return plain }
    // The face without the sheen in the same colour as with it: then so is
    // every amount of the sheen between (the colours' regions are convex in
    // the distance's terms), and none is lighter.
    let bare = nearest(under)
    if bare == plain { return plain }
    var (floorIndex, floor) = (bare, luma(bare))
    for k in 1..<4 {
      let i = nearest(under.screened(glow * Double(k) / 4))
      if luma(i) > floor { (floorIndex, floor) = (i, luma(i)) }
    }
    if luma(plain) >= floor { return plain }
    return above(c, floorIndex)
  }

  /// The xterm 256-colour index nearest to `c`.
  static func nearest256(_ c: TerminalColor) -> UInt8 { index256(c, floor: -1) }

  /// The index nearest to `c` of the cube's colours no darker than `floor`
  /// (luma), or of the greys: by ``TerminalColor/hueWeightedDistance(to:)``
  /// among the cube's two levels around each channel, then the grey ramp's
  /// step for a near-grey.
  static func index256(_ c: TerminalColor, floor: Double) -> UInt8 {
    let c = c.clamped
    let candidates = Candidates(c)
    let (r0, r1) = (candidates.red, min(candidates.red + 1, 5))
    let (g0, g1) = (candidates.green, min(candidates.green + 1, 5))
    let (b0, b1) = (candidates.blue, min(candidates.blue + 1, 5))
    var best: UInt8 = 16
    var bestDistance = Double.infinity
    // hueWeightedDistance(to:) with each candidate's terms kept (the same sums).
    let (luma, cb, cr) = (c.luma, c.b - c.luma, c.r - c.luma)
    chroma256.withUnsafeBufferPointer { terms in
      for r in r0...r1 {
        for g in g0...g1 {
          for b in b0...b1 {
            let i = 16 &+ 36 &* r &+ 6 &* g &+ b
            let t = terms[i]
            let dy = t.luma - luma
            let dcb = t.cb - cb
            let dcr = t.cr - cr
            let d = 3 * dy * dy + dcb * dcb + dcr * dcr + (t.luma < floor ? 1e9 : 0)
            if d < bestDistance {
              best = UInt8(truncatingIfNeeded: i)
              bestDistance = d
            }
          }
        }
      }
    }
    if let i = candidates.grey, rgb(ofIndex256: i).hueWeightedDistance(to: c) < bestDistance {
      best = i
    }
    return best
  }

  /// The colours ``index256(_:floor:)`` chooses among for a colour (0…255
  /// each channel): the cube's two levels around each channel (the lower
  /// one's index here; the level above it, if any, too), and for a
  /// near-grey the grey ramp's step. Among the same candidates the nearest
  /// by ``TerminalColor/hueWeightedDistance(to:)`` is a convex region of
  /// colours (the distance is one quadratic form for all), which is what
  /// lets ``TerminalPaletteTable`` answer for a whole cube of colours.
  struct Candidates: Equatable {
    var red: Int
    var green: Int
    var blue: Int
    var grey: UInt8?

    init(_ c: TerminalColor) {
      (red, green, blue) = (Self.level(c.r), Self.level(c.g), Self.level(c.b))
      if Self.nearGrey(c) > 0 { grey = Self.grey(c) }
    }

    /// The cube level at or below `v`.
    static func level(_ v: Double) -> Int {
      v < 95 ? 0 : v < 135 ? 1 : v < 175 ? 2 : v < 215 ? 3 : v < 255 ? 4 : 5
    }

    /// How far `c` is inside the near-greys (negative: outside): the spread
    /// of its channels below max(16, 0.3 × the highest).
    static func nearGrey(_ c: TerminalColor) -> Double {
      let high = max(c.r, c.g, c.b)
      return max(16, 0.3 * high) - (high - min(c.r, c.g, c.b))
    }

    /// The grey ramp's step nearest to `c`'s mean.
    static func grey(_ c: TerminalColor) -> UInt8 {
      let step = min(max((((c.r + c.g + c.b) / 3 - 8) / 10).rounded(), 0), 23)
      return UInt8(232 + Int(step))
    }

    /// Whether every colour within half a step of `c` (a whole colour) in
    /// each channel has `c`'s candidates: the levels, the mean's grey step
    /// and being a near-grey are each the same over that cube (the spread
    /// moves by 1 at most there, its bound by 0.15).
    static func same(aroundWhole c: TerminalColor) -> Bool { same(around: c, halfWidth: 0.5) }

    /// Whether every colour within `h` of `c` in each channel has `c`'s
    /// candidates (the spread moves by 2·`h` at most there, its bound by
    /// 0.3·`h`).
    static func same(around c: TerminalColor, halfWidth h: Double) -> Bool {
      func clamped(_ v: Double) -> Double { min(max(v, 0), 255) }
      for v in [c.r, c.g, c.b] where level(clamped(v - h)) != level(clamped(v + h)) {
        return false
      }
      let margin = nearGrey(c.clamped)
      guard abs(margin) > 2.3 * h else { return false }
      guard margin > 0 else { return true }
      let low = TerminalColor(clamped(c.r - h), clamped(c.g - h), clamped(c.b - h))
      let high = TerminalColor(clamped(c.r + h), clamped(c.g + h), clamped(c.b + h))
      return grey(low) == grey(high)
    }
  }

  /// The luma of each 256-colour index's colour (0 below 16).
  static let luma256: [Double] = (0..<256).map { $0 < 16 ? 0 : rgb(ofIndex256: UInt8($0)).luma }

  /// Each 256-colour index's luma and colour differences (blue and red
  /// minus luma), the terms of ``TerminalColor/hueWeightedDistance(to:)``.
  static let chroma256: [(luma: Double, cb: Double, cr: Double)] = (0..<256).map {
    let c = $0 < 16 ? TerminalColor.black : rgb(ofIndex256: UInt8($0))
    return (c.luma, c.b - c.luma, c.r - c.luma)
  }

  /// The colour xterm shows for a 256-colour index (16…255).
  static func rgb(ofIndex256 i: UInt8) -> TerminalColor {
    if i >= 232 {
      let v = Double(8 + 10 * (Int(i) - 232))
      return TerminalColor(v, v, v)
    }
    let n = Int(i) - 16
    return TerminalColor(cubeLevels[n / 36], cubeLevels[n / 6 % 6], cubeLevels[n % 6])
  }

  /// The nearest of the 8 ANSI colours (0 black … 7 white) by hue, so a
  /// shaded card keeps its colour: black only for a pixel close to black,
  /// white or black for a grey.
  static func ansiHue(_ c: TerminalColor) -> Int {
    let high = max(c.r, c.g, c.b)
    let low = min(c.r, c.g, c.b)
    guard high >= 40 else { return 0 }
    guard high - low >= 0.25 * high else { return high >= 128 ? 7 : 0 }
    // Each channel that is at least halfway from the lowest to the highest is on.
    let mid = (high + low) / 2
    return (c.r >= mid ? 1 : 0) | (c.g >= mid ? 2 : 0) | (c.b >= mid ? 4 : 0)
  }

  /// xterm's default colours for the 16 ANSI indices, to compare cells by.
  static let ansiRGB: [TerminalColor] = {
    let hex: [UInt32] = [
      0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
      0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
    ]
    return hex.map { TerminalColor(hex: $0) }
  }()
}
