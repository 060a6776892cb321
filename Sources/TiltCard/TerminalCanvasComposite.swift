import Foundation

/// The last pass: the backdrop and the shadow under the card, and the
/// card's anti-aliased edge over them.
extension TerminalCanvas {
  /// Each subpixel of `drawn` (of a canvas `subW` wide) that the card does
  /// not cover whole: the `stage` darkened by the `tight` and `wide`
  /// shadow layers (or black where `hardShadow` and the shadow is dark
  /// enough, or the terminal's background), and the card's colour over it
  /// as much as the card covers it. Without `smooth` a subpixel is the card
  /// or what is under it, whichever covers half.
  static func composite(
    _ drawn: Window, width subW: Int, stage: [TerminalColor], tight: ShadowLayer,
    wide: ShadowLayer, card: Window, backdrop: Bool, hardShadow: Bool, smooth: Bool,
    colors: inout [TerminalColor?], materials: inout [TerminalCardFace.Material?],
    coverage: [Double]
  ) {
    let (tw, ww) = (tight.window, wide.window)
    colors.withUnsafeMutableBufferPointer { colors in
      materials.withUnsafeMutableBufferPointer { materials in
        coverage.withUnsafeBufferPointer { coverage in
          tight.values.withUnsafeBufferPointer { tightValues in
            wide.values.withUnsafeBufferPointer { wideValues in
              tight.cells.withUnsafeBufferPointer { tightCells in
                wide.cells.withUnsafeBufferPointer { wideCells in
                  let (tightLayer, wideLayer) = (tight, wide)
                  stage.withUnsafeBufferPointer { stage in
                    // A coarse layer's row, at its subpixels, each row in turn.
                    let rows = UnsafeMutablePointer<Double>.allocate(capacity: 3 * subW + 4)
                    defer { rows.deallocate() }
                    let (tightRow, wideRow, cells) = (rows, rows + subW, rows + 2 * subW)
                    var (tight, wide) = (tightValues.baseAddress!, wideValues.baseAddress!)
                    // The card's box in the row (from its start).
                    var (boxL, boxR) = (0, 0)
                    // Subpixels a ..< b of a row, each layer read where `has…`
                    // (the shadow is 0 outside a layer's window).
                    @inline(__always)
                    func run(_ a: Int, _ b: Int, hasTight: Bool, hasWide: Bool) {
                      if backdrop && smooth {
                        // Past the card's box it covers none.
                        let lo = min(max(a, boxL), b)
                        let hi = max(min(b, boxR), lo)
                        shade(
                          a, lo, colors.baseAddress!, stage.baseAddress!,
                          tight: hasTight ? tight : nil,
                          wide: hasWide ? wide : nil)
                        shade(
                          hi, b, colors.baseAddress!, stage.baseAddress!,
                          tight: hasTight ? tight : nil,
                          wide: hasWide ? wide : nil)
                        for i in lo..<hi {
                          let cover = coverage[i]
                          guard cover < 1 else { continue }
                          let t = hasTight ? tight[i] : 0
                          let w = hasWide ? wide[i] : 0
                          let under = stage[i].scaled(Self.backdropLeft(Self.shadowAlpha(t, w)))
                          if cover > 0, let card = colors[i] {
                            colors[i] = TerminalColor.mix(under, card, cover)
                          } else {
                            colors[i] = under
                          }
                        }
                        return
                      }
                      for i in a..<b {
                        let cover = coverage[i]
                        guard cover < 1 else { continue }
                        let t = hasTight ? tight[i] : 0
                        let w = hasWide ? wide[i] : 0
                        // With no shadow (t = w = 0) the backdrop as it is (scaled by 1).
                        let alpha = Self.shadowAlpha(t, w)
                        var under: TerminalColor?
                        if backdrop {
                          under = stage[i].scaled(Self.backdropLeft(alpha))
                        } else if hardShadow && alpha > 0.22 {
                          under = .black
                        }
                        // Where the card covers none (0 past its box) the colour is stale.
                        if cover > 0, let card = colors[i] {
                          if !smooth {
                            if cover < 0.5 {
                              colors[i] = under
                              materials[i] = nil
                            }
                          } else if let under {
                            // Anti-aliased edge: the card over what is under it.
                            colors[i] = TerminalColor.mix(under, card, cover)
                          } else if cover < 0.5 {
                            colors[i] = nil
                            materials[i] = nil
                          }
                        } else {
                          colors[i] = under
                        }
                      }
                    }
                    // Each row in pieces between the windows' edges.
                    var edges = [Int]()
                    for sy in drawn.y0..<drawn.y1 {
                      let inTight = sy >= tw.y0 && sy < tw.y1
                      let inWide = sy >= ww.y0 && sy < ww.y1
                      edges.removeAll(keepingCapacity: true)
                      edges.append(drawn.x0)
                      for x in [tw.x0, tw.x1, ww.x0, ww.x1] where x > drawn.x0 && x < drawn.x1 {
                        edges.append(x)
                      }
                      edges.append(drawn.x1)
                      let row = sy &* subW
                      (boxL, boxR) =
                        sy >= card.y0 && sy < card.y1
                        ? (row &+ card.x0, row &+ card.x1) : (row, row)
                      let inside = interior(coverage.baseAddress! + row, card, row: sy)
                      if !inside.isEmpty {
                        edges.append(inside.lowerBound)
                        edges.append(inside.upperBound)
                      }
                      edges.sort()
                      if inTight,
                        readRow(
                          tightLayer, tightCells.baseAddress!, width: subW, row: sy, skip: inside,
                          cells: cells, into: tightRow)
                      {
                        tight = UnsafePointer(tightRow) - (row &+ tw.x0)
                      }
                      if inWide,
                        readRow(
                          wideLayer, wideCells.baseAddress!, width: subW, row: sy, skip: inside,
                          cells: cells, into: wideRow)
                      {
                        wide = UnsafePointer(wideRow) - (row &+ ww.x0)
                      }
                      for k in 0..<(edges.count &- 1) where edges[k] < edges[k &+ 1] {
                        let (a, b) = (edges[k], edges[k &+ 1])
                        if a >= inside.lowerBound && b <= inside.upperBound { continue }
                        let hasTight = inTight && a >= tw.x0 && b <= tw.x1
                        let hasWide = inWide && a >= ww.x0 && b <= ww.x1
                        switch (hasTight, hasWide) {
                        case (true, true): run(row &+ a, row &+ b, hasTight: true, hasWide: true)
                        case (true, false): run(row &+ a, row &+ b, hasTight: true, hasWide: false)
                        case (false, true): run(row &+ a, row &+ b, hasTight: false, hasWide: true)
                        case (false, false):
                          run(row &+ a, row &+ b, hasTight: false, hasWide: false)
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  /// Row `sy` of `layer` into `out` (see
  /// ``upsampleRow(_:_:width:row:skip:cells:into:)``) where it is kept in
  /// `values` (its cells) rather than in doubles; whether it is.
  static func readRow(
    _ layer: ShadowLayer, _ values: UnsafePointer<Float>, width subW: Int, row sy: Int,
    skip: Range<Int>, cells: UnsafeMutablePointer<Double>, into out: UnsafeMutablePointer<Double>
  ) -> Bool {
    if layer.coarse != nil {
      upsampleRow(layer, values, width: subW, row: sy, skip: skip, cells: cells, into: out)
    } else if layer.single {
      widenRow(layer, values, width: subW, row: sy, skip: skip, into: out)
    }
    return layer.coarse != nil || layer.single
  }

  /// The page's two drop shadows' opacities, and the most of the
  /// backdrop's colour the shadow takes.
  static let tightOpacity = 0.30
  static let wideOpacity = 0.20
  static let deepestShadow = 0.8

  /// The shadow's opacity where its layers are `t` (tight) and `w` (wide):
  /// the two drop shadows over each other.
  @inline(__always)
  static func shadowAlpha(_ t: Double, _ w: Double) -> Double {
    1 - (1 - tightOpacity * t) * (1 - wideOpacity * w)
  }

  /// How much of the backdrop's colour is left under a shadow of opacity
  /// `alpha`: ``shadowDepth`` times deeper than the page's (it is on a dark
  /// stage), never past ``deepestShadow``.
  @inline(__always)
  static func backdropLeft(_ alpha: Double) -> Double {
    1 - min(shadowDepth * alpha, deepestShadow)
  }

  /// Subpixels `a ..< b` the card does not cover: the `stage` darkened by
  /// the `tight` and `wide` layers (0 where `nil`), four at a time.
  @inline(__always)
  static func shade(
    _ a: Int, _ b: Int, _ colors: UnsafeMutablePointer<TerminalColor?>,
    _ stage: UnsafePointer<TerminalColor>, tight: UnsafePointer<Double>?,
    wide: UnsafePointer<Double>?
  ) {
    let depth = Lanes(repeating: Self.shadowDepth)
    let (one, most) = (Lanes(repeating: 1), Lanes(repeating: Self.deepestShadow))
    let (ta, wa) = (Lanes(repeating: Self.tightOpacity), Lanes(repeating: Self.wideOpacity))
    var i = a
    while i &+ 4 <= b {
      let t = tight.map { Lanes.load($0 + i) } ?? Lanes()
      let w = wide.map { Lanes.load($0 + i) } ?? Lanes()
      let alpha = one - (one - ta * t) * (one - wa * w)
      let d = depth * alpha
      let f = one - d.replacing(with: most, where: most .< d)
      for j in 0..<4 { colors[i &+ j] = stage[i &+ j].scaled(f[j]) }
      i &+= 4
    }
    for i in i..<b {
      let t = tight?[i] ?? 0
      let w = wide?[i] ?? 0
      colors[i] = stage[i].scaled(Self.backdropLeft(Self.shadowAlpha(t, w)))
    }
  }

  /// The subpixels of a row (`coverage` from its start) that the card
  /// covers whole from the first it covers whole to the last, if it covers
  /// whole all between (the card is convex); else none.
  static func interior(_ coverage: UnsafePointer<Double>, _ card: Window, row sy: Int) -> Range<Int>
  {
    guard sy >= card.y0 && sy < card.y1 else { return 0..<0 }
    var l = card.x0
    while l < card.x1 && coverage[l] < 1 { l &+= 1 }
    guard l < card.x1 else { return 0..<0 }
    var r = card.x1
    while coverage[r &- 1] < 1 { r &-= 1 }
    var x = l
    let one = Lanes(repeating: 1)
    while x &+ 4 <= r {
      if any(Lanes.load(coverage + x) .< one) { return 0..<0 }
      x &+= 4
    }
    for x in x..<r where coverage[x] < 1 { return 0..<0 }
    return l..<r
  }
}
