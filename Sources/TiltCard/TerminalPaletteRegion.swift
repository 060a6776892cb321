import Foundation

/// Which 256-colour indices can be the nearest (``TerminalPalette/nearest256(_:)``)
/// to a colour in a small cube of colours, told from one search at its
/// middle: between two candidates the difference of their distances
/// (``TerminalColor/hueWeightedDistance(to:)``, one quadratic form for all)
/// is linear in the colour, so over the cube it is at least its value at
/// the middle less the half width times the gradient's 1-norm. A candidate
/// beaten by that bound everywhere in the cube is never the nearest there.
enum TerminalPaletteRegion: Equatable {
  /// Every colour of the cube has this index.
  case index(UInt8)
  /// Every colour of the cube has one of these two (``nearer(_:_:to:)`` tells which).
  case pair(UInt8, UInt8)
  /// More than two, or the candidates differ over the cube: searched.
  case border

  /// How far a bound must clear zero: far more than the distances' rounding
  /// (some 1e-10 at the largest), far less than any colour's step.
  private static let margin = 1e-3

  /// The indices of the cube of half width `h` about `centre` (within
  /// 0…255), each channel. With `floor`, the nearest no darker than it
  /// (``TerminalPalette/index256(_:floor:)``): one index or ``border``.
  static func of(cubeAbout centre: TerminalColor, halfWidth h: Double, floor: Double = -1)
    -> Self
  {
    guard TerminalPalette.Candidates.same(around: centre, halfWidth: h) else {
      return floor < 0 ? across(cubeAbout: centre, halfWidth: h) : .border
    }
    let c = centre.clamped
    let candidates = TerminalPalette.Candidates(c)
    var indices: [Int] = []
    for r in candidates.red...min(candidates.red + 1, 5) {
      for g in candidates.green...min(candidates.green + 1, 5) {
        for b in candidates.blue...min(candidates.blue + 1, 5) {
          indices.append(16 + 36 * r + 6 * g + b)
        }
      }
    }
    // Those darker than the floor lose to any other of the cube's (by 1e9).
    indices.removeAll { TerminalPalette.chroma256[$0].luma < floor }
    if indices.isEmpty { return .border }
    if let grey = candidates.grey { indices.append(Int(grey)) }
    let best = Int(TerminalPalette.index256(c, floor: floor))
    if floor >= 0 && !indices.contains(best) { return .border }
    // How far each candidate stays from `best` (at the least) over the cube.
    let clearance = indices.map { $0 == best ? Double.infinity : bound($0, over: best, c, h) }
    guard let closest = clearance.indices.min(by: { clearance[$0] < clearance[$1] }),
      clearance[closest] <= margin
    else { return .index(UInt8(best)) }
    let second = indices[closest]
    if floor >= 0 { return .border }
    for (k, i) in indices.enumerated() where i != best && i != second {
      guard clearance[k] > margin || bound(i, over: second, c, h) > margin else { return .border }
    }
    return .pair(UInt8(best), UInt8(second))
  }

  /// For a cube over which the candidates differ (it crosses a cube
  /// level, or a grey step or the near-greys' bound): the index nearest at
  /// its middle where that is of the cube, a candidate everywhere in it, and
  /// nearer everywhere than every candidate anywhere in it; else ``border``.
  private static func across(cubeAbout centre: TerminalColor, halfWidth h: Double) -> Self {
    typealias Candidates = TerminalPalette.Candidates
    let c = centre.clamped
    let best = Int(TerminalPalette.nearest256(c))
    guard best < 232 else { return .border }
    let low = TerminalColor(centre.r - h, centre.g - h, centre.b - h).clamped
    let high = TerminalColor(centre.r + h, centre.g + h, centre.b + h).clamped
    // Each channel's levels over the cube, and whether best's is a candidate at each.
    var levels: [ClosedRange<Int>] = []
    let bestLevels = [(best - 16) / 36, (best - 16) / 6 % 6, (best - 16) % 6]
    for (k, (a, b)) in [(low.r, high.r), (low.g, high.g), (low.b, high.b)].enumerated() {
      let range = Candidates.level(a)...Candidates.level(b)
      for l in range where bestLevels[k] != l && bestLevels[k] != min(l + 1, 5) {
        return .border
      }
      levels.append(range.lowerBound...min(range.upperBound + 1, 5))
    }
    var indices: [Int] = []
    for r in levels[0] {
      for g in levels[1] {
        for b in levels[2] where 16 + 36 * r + 6 * g + b != best {
          indices.append(16 + 36 * r + 6 * g + b)
        }
      }
    }
    // The grey steps of the cube's means, where any of it may be a near-grey.
    if Candidates.nearGrey(c) > -2.3 * h {
      indices += (Int(Candidates.grey(low))...Int(Candidates.grey(high))).map { $0 }
    }
    for i in indices where bound(i, over: best, c, h) <= margin { return .border }
    return .index(UInt8(best))
  }

  /// The least over the cube of half width `h` about `c` of index `j`'s
  /// distance less index `i`'s.
  private static func bound(_ j: Int, over i: Int, _ c: TerminalColor, _ h: Double) -> Double {
    let (pj, pi) = (TerminalPalette.chroma256[j], TerminalPalette.chroma256[i])
    let terms = (c.luma, c.b - c.luma, c.r - c.luma)
    let at = distance(pj, terms) - distance(pi, terms)
    // The gradient in (luma, cb, cr), then through their rows in (r, g, b).
    let (gy, gb, gr) = (-6 * (pj.luma - pi.luma), -2 * (pj.cb - pi.cb), -2 * (pj.cr - pi.cr))
    let luma = (0.2126, 0.7152, 0.0722)
    let red = gy * luma.0 - gb * luma.0 + gr * (1 - luma.0)
    let green = gy * luma.1 - gb * luma.1 - gr * luma.1
    let blue = gy * luma.2 + gb * (1 - luma.2) - gr * luma.2
    return at - h * (abs(red) + abs(green) + abs(blue))
  }

  /// ``TerminalPalette/index256(_:floor:)``'s distance, term for term.
  @inline(__always)
  static func distance(
    _ t: (luma: Double, cb: Double, cr: Double), _ c: (Double, Double, Double)
  ) -> Double {
    let dy = t.luma - c.0
    let dcb = t.cb - c.1
    let dcr = t.cr - c.2
    return 3 * dy * dy + dcb * dcb + dcr * dcr
  }

  /// Of `a` and `b`, the one ``TerminalPalette/nearest256(_:)`` gives for `c`
  /// when the nearest is one of them: the nearer, on a tie the cube's lower
  /// index (its search goes up the indices and keeps the first of equals),
  /// and a grey only when strictly nearer than the cube's.
  @inline(__always)
  static func nearer(_ a: UInt8, _ b: UInt8, to c: TerminalColor, terms: UnsafePointer<Double>)
    -> UInt8
  {
    let c = c.clamped
    let luma = c.luma
    let cc = (luma, c.b - luma, c.r - luma)
    @inline(__always) func d(_ i: UInt8) -> Double {
      let t = terms + 3 &* Int(i)
      return distance((t[0], t[1], t[2]), cc)
    }
    let (da, db) = (d(a), d(b))
    let (greyA, greyB) = (a >= 232, b >= 232)
    if greyA == greyB { return a < b ? (da <= db ? a : b) : (db <= da ? b : a) }
    return greyA ? (da < db ? a : b) : (db < da ? b : a)
  }
}
