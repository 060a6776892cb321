import Foundation

/// The card drawn into a grid of subpixels, two across and two down a cell
/// (a cell is about twice as tall as wide, so a subpixel is a half cell wide
/// and a cell-width tall), each the average of 2 × 2 samples: the face in
/// perspective, its light and shade, the shadow on the backdrop.
///
/// Why 2 × 2 a cell: the cells are then written as half blocks (`▀`, two
/// colours a cell, one above the other), or where the two halves of a cell
/// differ in shape, as quadrants (`▖▗▘▝▚▞▙▛▜▟`, two colours in a 2 × 2
/// pattern) so that a corner or an edge falls on half a cell, not a whole
/// one. Quadrants are in the same Unicode block as the half blocks (Block
/// Elements, U+2580…259F), so a font with one has the other, and every width
/// table calls them one column. Sextants (2 × 3, U+1FB00…) would be finer,
/// but they are only in Unicode 13 and most monospace fonts lack them
/// (DejaVu Sans Mono among them): there they would show as boxes.
struct TerminalCanvas {
  let columns: Int
  let rows: Int
  /// Subpixels across and down: `2·columns` × `2·rows`.
  var subWidth: Int { 2 * columns }
  var subHeight: Int { 2 * rows }
  /// The colour of each subpixel; `nil` is the terminal's own background.
  var colors: [TerminalColor?]
  /// The face's coverage of each subpixel, 0…1, and what it is mostly made of.
  var coverage: [Double]
  var materials: [TerminalCardFace.Material?]
  /// The sheen's opacity at each subpixel (for 16 colours' bright variants).
  var glow: [Double]
  /// Columns (cell widths) per point.
  let scale: Double
  /// The card's centre in subpixels.
  let centreX: Double
  let centreY: Double
  /// The subpixels outside which the card covers none: columns `x0..<x1`,
  /// rows `y0..<y1`.
  private(set) var cardBox = (x0: 0, y0: 0, x1: 0, y1: 0)

  /// The backdrop of the card: the page's stage, a radial gradient (centre a
  /// third down), dark enough that the face stands out, light enough that a
  /// shadow on it shows.
  static let backdropCentre = TerminalColor(46, 49, 60)
  static let backdropEdge = TerminalColor(24, 26, 32)
  /// How much farther than the page's the shadow reaches (see the shadow).
  static let shadowReach = 2.0
  /// How much darker than the page's the shadow is: the page's shadow is on
  /// a light stage; on the dark backdrop the same opacity would not show.
  static let shadowDepth = 1.8

  /// Draws `frame` into `columns` × `rows` cells. `backdrop` paints the
  /// stage and the shadow; without it only the card is drawn (the terminal's
  /// background shows around it), with a hard shadow where `hardShadow`.
  ///
  /// `smooth` blends the outline into what is under it and lights the
  /// hairline edge: for 24-bit colour. With a palette the blends come out
  /// as other hues (a grey or dark teal fringe), so there the outline is
  /// where the face covers half a subpixel, drawn in the face's colour.
  init(
    frame: CardFrame, face: TerminalCardFace, columns: Int, rows: Int, backdrop: Bool,
    hardShadow: Bool, smooth: Bool = true, cache: TerminalRasterCache = TerminalRasterCache()
  ) {
    self.columns = columns
    self.rows = rows
    let (w, h) = (face.width, face.height)
    // The card and its shadow in about 77 % of the width and 74 % of the
    // height, in cell widths (a row is two).
    scale = min(Double(columns) / (w * 1.3), Double(2 * rows) / (h * 1.35))
    // A corner at least 5 subpixels (2½ rows) tall, so it reads as round
    // at 40 × 12 too; at 80 × 24 and up the page's corner is larger.
    var face = face
    face.minimumCornerExtent = 5 / scale
    centreX = Double(columns)  // subpixels: 2 a column
    centreY = Double(rows) * 0.98
    let count = 4 * columns * rows
    colors = TerminalRasterCache.reuse(&cache.colors, nil, count: count)
    coverage = TerminalRasterCache.reuse(&cache.coverage, 0, count: count)
    materials = TerminalRasterCache.reuse(&cache.materials, nil, count: count)
    glow = TerminalRasterCache.reuse(&cache.glow, 0, count: count)
    let subW = 2 * columns
    let subH = 2 * rows

    let x = frame.extras
    let light = 1 - 0.6 * x.shade
    let inverse = Homography(frame.transform).inverse
    // Subpixel (sx, sy) centre → view points: x 2·scale subpixels a point, y scale.
    let sxPerPoint = 2 * scale * x.lift
    let syPerPoint = scale * x.lift
    let rim = 0.7 / scale  // points: about 0.7 of a cell width
    let (hw, hh) = (w / 2, h / 2)
    let extent = face.cornerExtent

    // Subpixel coordinates to view points, as products (no division).
    let (pointsPerSX, pointsPerSY) = (1 / sxPerPoint, 1 / syPerPoint)
    let m = inverse?.m ?? (0, 0, 0, 0, 0, 0, 0, 0, 0)

    // One sample of the face at face point (u, v).
    @inline(__always)
    func shade(_ u: Double, _ v: Double) -> (TerminalColor, TerminalCardFace.Material, Double)? {
      guard let (base, material) = face.paint(frame.face, u, v) else { return nil }
      var c = base
      let (au, av) = (abs(u), abs(v))
      let nearEdge =
        au > hw - rim || av > hh - rim || (au > hw - extent && av > hh - extent)
      if smooth && material == .face && nearEdge {
        // The page's hairline edge, as wide as the terminal can show it.
        if !face.contains(au + rim, av) || !face.contains(au, av + rim) {
          c = TerminalColor.mix(c, .white, 0.22)
        }
      }
      let s = face.sheen(u, v, x: x.sheenX, y: x.sheenY)
      return (c.screened(s).scaled(light), material, s)
    }

    // One sample of the face at subpixel coordinates (px, py).
    func sample(_ px: Double, _ py: Double) -> (TerminalColor, TerminalCardFace.Material, Double)? {
      guard inverse != nil else { return nil }
      let vx = (px - centreX) * pointsPerSX
      let vy = (py - centreY) * pointsPerSY
      let w = m.6 * vx + m.7 * vy + m.8
      guard abs(w) > 1e-12 else { return nil }
      let r = 1 / w
      return shade((m.0 * vx + m.1 * vy + m.2) * r, (m.3 * vx + m.4 * vy + m.5) * r)
    }

    // The subpixels the card can cover: the box of its projected corners
    // (the whole canvas where a corner is behind the eye).
    var box = (x0: 0, y0: 0, x1: subW, y1: subH)
    let corners = [(-hw, -hh), (hw, -hh), (-hw, hh), (hw, hh)].map {
      frame.transform.project(x: $0.0, y: $0.1)
    }
    if corners.allSatisfy({ $0 != nil }) {
      let xs = corners.map { centreX + $0!.x * sxPerPoint }
      let ys = corners.map { centreY + $0!.y * syPerPoint }
      func clip(_ v: Double, _ limit: Int) -> Int { min(max(Int(v.rounded(.down)), 0), limit) }
      box = (
        clip(xs.min()! - 1, subW), clip(ys.min()! - 1, subH),
        clip(xs.max()! + 2, subW), clip(ys.max()! + 2, subH)
      )
    }
    self.cardBox = box

    // The middle of each subpixel first; then 2 × 2 samples where a
    // neighbour differs (the outline, the chip's and the code's edges).
    // Along a row the map's numerators and denominator are linear in the
    // column: each is its value at the row's start plus a step per subpixel.
    var kinds = [UInt8](repeating: 0, count: count)
    if inverse != nil {
      let (stepU, stepV, stepW) = (m.0 * pointsPerSX, m.3 * pointsPerSX, m.6 * pointsPerSX)
      let (originX, originY) = (centreX, centreY)
      colors.withUnsafeMutableBufferPointer { colors in
        materials.withUnsafeMutableBufferPointer { materials in
          glow.withUnsafeMutableBufferPointer { glow in
            coverage.withUnsafeMutableBufferPointer { coverage in
              kinds.withUnsafeMutableBufferPointer { kinds in
                for sy in box.y0..<max(box.y1, box.y0) {
                  let vy = (Double(sy) + 0.5 - originY) * pointsPerSY
                  let vx0 = (Double(box.x0) + 0.5 - originX) * pointsPerSX
                  let u0 = m.0 * vx0 + m.1 * vy + m.2
                  let v0 = m.3 * vx0 + m.4 * vy + m.5
                  let w0 = m.6 * vx0 + m.7 * vy + m.8
                  for sx in box.x0..<max(box.x1, box.x0) {
                    let k = Double(sx &- box.x0)
                    let w = w0 + k * stepW
                    guard abs(w) > 1e-12 else { continue }
                    let r = 1 / w
                    guard let (c, material, s) = shade((u0 + k * stepU) * r, (v0 + k * stepV) * r)
                    else { continue }
                    let i = sy &* subW &+ sx
                    colors[i] = c
                    materials[i] = material
                    glow[i] = s
                    coverage[i] = 1
                    kinds[i] = material.rawValue + 1
                  }
                }
              }
            }
          }
        }
      }
    }
    let offsets: [(Double, Double)] = [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]
    for sy in box.y0..<max(box.y1, box.y0) {
      for sx in box.x0..<max(box.x1, box.x0) {
        let i = sy * subW + sx
        let k = kinds[i]
        let edge =
          (sx > 0 && kinds[i - 1] != k) || (sx + 1 < subW && kinds[i + 1] != k)
          || (sy > 0 && kinds[i - subW] != k) || (sy + 1 < subH && kinds[i + subW] != k)
        guard edge else { continue }
        var sum = TerminalColor(0, 0, 0)
        var hits = 0
        var glowSum = 0.0
        var counts = (0, 0, 0)
        for (ox, oy) in offsets {
          guard let (c, material, s) = sample(Double(sx) + ox, Double(sy) + oy) else { continue }
          sum = TerminalColor(sum.r + c.r, sum.g + c.g, sum.b + c.b)
          glowSum += s
          switch material {
          case .face: counts.0 += 1
          case .chip: counts.1 += 1
          case .code: counts.2 += 1
          }
          hits += 1
        }
        coverage[i] = Double(hits) / 4
        if hits > 0 {
          colors[i] = sum.scaled(1 / Double(hits))
          glow[i] = glowSum / Double(hits)
          materials[i] =
            counts.0 >= counts.1 && counts.0 >= counts.2
            ? .face : (counts.1 >= counts.2 ? .chip : .code)
        } else {
          colors[i] = nil
          materials[i] = nil
        }
      }
    }

    // The shadow: the card's outline moved down and away from the light and
    // blurred, as the page's two drop shadows (a tight one at 0.30, a wide
    // one at 0.20), from the same offsets and blur (CardExtras).
    // A terminal cell is some 14 points of the card at 80 × 24, so the
    // page's offsets are doubled to leave the card's edge at all.
    let k = Self.shadowReach
    var scratch = cache.scratch
    cache.scratch = []
    var tight = ShadowLayer(values: cache.tight, window: (0, 0, 0, 0))
    cache.tight = []
    tight.window = shadowLayer(
      dx: k * 0.2 * x.shadowX * sxPerPoint, dy: k * (0.15 * x.shadowY + 1) * syPerPoint,
      blur: k * 0.15 * x.shadowBlur * syPerPoint, layer: &tight.values, scratch: &scratch)
    var wide = ShadowLayer(values: cache.wide, window: (0, 0, 0, 0))
    cache.wide = []
    wide.window = shadowLayer(
      dx: k * 1.2 * x.shadowX * sxPerPoint, dy: k * 1.3 * x.shadowY * syPerPoint,
      blur: k * 1.6 * x.shadowBlur * syPerPoint, layer: &wide.values, scratch: &scratch)
    defer { (cache.tight, cache.wide, cache.scratch) = (tight.values, wide.values, scratch) }
    let stage =
      backdrop
      ? cache.backdrop(width: subW, height: subH) {
        var out: [TerminalColor] = []
        out.reserveCapacity(count)
        for sy in 0..<subH {
          for sx in 0..<subW {
            let nx = (Double(sx) + 0.5) / Double(subW) - 0.5
            let ny = ((Double(sy) + 0.5) / Double(subH) - 0.35) * 0.8
            let d = min((nx * nx + ny * ny).squareRoot() / 0.6, 1)
            out.append(TerminalColor.mix(Self.backdropCentre, Self.backdropEdge, d))
          }
        }
        return out
      } : []
    let (tw, ww) = (tight.window, wide.window)
    let depth = Self.shadowDepth
    colors.withUnsafeMutableBufferPointer { colors in
      materials.withUnsafeMutableBufferPointer { materials in
        coverage.withUnsafeBufferPointer { coverage in
          tight.values.withUnsafeBufferPointer { tight in
            wide.values.withUnsafeBufferPointer { wide in
              stage.withUnsafeBufferPointer { stage in
                for sy in 0..<subH {
                  let inTight = sy >= tw.y0 && sy < tw.y1
                  let inWide = sy >= ww.y0 && sy < ww.y1
                  for sx in 0..<subW {
                    let i = sy &* subW &+ sx
                    let cover = coverage[i]
                    guard cover < 1 else { continue }
                    let t = inTight && sx >= tw.x0 && sx < tw.x1 ? tight[i] : 0
                    let w = inWide && sx >= ww.x0 && sx < ww.x1 ? wide[i] : 0
                    var under: TerminalColor?
                    if t == 0 && w == 0 {
                      // No shadow: the backdrop as it is (scaled by 1).
                      under = backdrop ? stage[i] : nil
                    } else {
                      let alpha = 1 - (1 - 0.30 * t) * (1 - 0.20 * w)
                      if backdrop {
                        under = stage[i].scaled(1 - min(depth * alpha, 0.8))
                      } else if hardShadow && alpha > 0.22 {
                        under = .black
                      }
                    }
                    if let card = colors[i] {
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
              }
            }
          }
        }
      }
    }
  }

  /// A rectangle of subpixels: columns `x0..<x1`, rows `y0..<y1`.
  typealias Window = (x0: Int, y0: Int, x1: Int, y1: Int)

  /// One of the shadow's layers: its values in `window`, 0 elsewhere.
  struct ShadowLayer {
    var values: [Double]
    var window: Window

    func contains(_ sx: Int, _ sy: Int) -> Bool {
      sx >= window.x0 && sx < window.x1 && sy >= window.y0 && sy < window.y1
    }
  }

  /// The card's coverage moved by (`dx`, `dy`) subpixels and blurred over
  /// about `blur` (the CSS blur radius, in vertical subpixels), in `layer`'s
  /// storage with `scratch` for the passes (neither needs to be zero: only
  /// what the window covers is written and read).
  private func shadowLayer(
    dx: Double, dy: Double, blur: Double, layer: inout [Double], scratch: inout [Double]
  ) -> Window {
    let (subW, subH) = (subWidth, subHeight)
    if layer.count != subW * subH { layer = [Double](repeating: 0, count: subW * subH) }
    if scratch.count != subW * subH { scratch = [Double](repeating: 0, count: subW * subH) }
    let ix = Int(dx.rounded())
    let iy = Int(dy.rounded())
    // Where the moved coverage can be other than 0.
    var window = (
      x0: min(max(cardBox.x0 + ix, 0), subW), y0: min(max(cardBox.y0 + iy, 0), subH),
      x1: min(max(cardBox.x1 + ix, 0), subW), y1: min(max(cardBox.y1 + iy, 0), subH)
    )
    guard window.x0 < window.x1, window.y0 < window.y1 else { return (0, 0, 0, 0) }
    layer.withUnsafeMutableBufferPointer { layer in
      coverage.withUnsafeBufferPointer { coverage in
        let shift = iy &* subW &+ ix
        for sy in window.y0..<window.y1 {
          let row = sy &* subW
          for sx in window.x0..<window.x1 {
            layer[row &+ sx] = coverage[row &+ sx &- shift]
          }
        }
      }
    }
    // CSS blur is a Gaussian of σ = radius / 2; two box passes of about σ
    // each way come close. Across, a subpixel is half as wide: twice the boxes.
    let ry = max(Int((blur / 2).rounded()), 0)
    let rx = 2 * ry
    guard rx > 0 || ry > 0 else { return window }
    for _ in 0..<2 {
      window = Self.boxBlur(
        &layer, scratch: &scratch, width: subW, height: subH, rx: rx, ry: ry, window: window)
    }
    return window
  }

  /// A box blur of `rx` each way across, then `ry` down, with running sums,
  /// of the values of `a` in `window` (0 around it), in place; returns the
  /// window of the result (`window` grown by the radii). `scratch` holds
  /// the pass across.
  static func boxBlur(
    _ a: inout [Double], scratch: inout [Double], width: Int, height: Int, rx: Int, ry: Int,
    window wi: Window
  ) -> Window {
    let wo = (
      x0: max(wi.x0 - rx, 0), y0: max(wi.y0 - ry, 0), x1: min(wi.x1 + rx, width),
      y1: min(wi.y1 + ry, height)
    )
    // Multiplied by, not divided by: the same to an ulp, and the loops vectorise.
    let nx = 1 / Double(2 * rx + 1)
    let ny = 1 / Double(2 * ry + 1)
    var sums = [Double](repeating: 0, count: max(height, width))
    a.withUnsafeMutableBufferPointer { a in
      scratch.withUnsafeMutableBufferPointer { tmp in
        sums.withUnsafeMutableBufferPointer { sums in
          // Across each row with its running sum, all the rows at once
          // (their sums are independent, so they overlap), each in its order.
          for y in wo.y0..<wo.y1 {
            var s = 0.0
            if y >= wi.y0 && y < wi.y1 {
              let from = max(wo.x0 - rx, wi.x0)
              let to = min(wo.x0 + rx, wi.x1 - 1)
              if from <= to { for k in from...to { s += a[y * width + k] } }
            }
            sums[y] = s
          }
          // Rows the input has nothing in stay 0.
          let rowsIn = max(wo.y0, wi.y0)..<max(min(wo.y1, wi.y1), max(wo.y0, wi.y0))
          for y in wo.y0..<wo.y1 where !rowsIn.contains(y) {
            for x in wo.x0..<wo.x1 { tmp[y * width + x] = 0 }
          }
          for x in wo.x0..<wo.x1 {
            let add = x + rx + 1
            let drop = x - rx
            let adds = add >= wi.x0 && add < wi.x1
            let drops = drop >= wi.x0 && drop < wi.x1
            // s + a[add] - a[drop], in that order, where each is in the input.
            switch (adds, drops) {
            case (true, true):
              for y in rowsIn {
                let row = y &* width
                let s = sums[y]
                tmp[row &+ x] = s * nx
                sums[y] = s + a[row &+ add] - a[row &+ drop]
              }
            case (true, false):
              for y in rowsIn {
                let row = y &* width
                let s = sums[y]
                tmp[row &+ x] = s * nx
                sums[y] = s + a[row &+ add]
              }
            case (false, true):
              for y in rowsIn {
                let row = y &* width
                let s = sums[y]
                tmp[row &+ x] = s * nx
                sums[y] = s - a[row &+ drop]
              }
            case (false, false):
              for y in rowsIn { tmp[y &* width &+ x] = sums[y] * nx }
            }
          }
          // Down the columns, a row at a time: each column's running sum.
          let (x0, x1) = (wo.x0, wo.x1)
          for x in x0..<x1 { sums[x] = 0 }
          if wo.y0 < wo.y1 {
            for k in wo.y0...min(wo.y0 + ry, wo.y1 - 1) {
              let row = k &* width
              for x in x0..<x1 { sums[x] += tmp[row &+ x] }
            }
          }
          for y in wo.y0..<wo.y1 {
            let row = y &* width
            for x in x0..<x1 { a[row &+ x] = sums[x] * ny }
            if y + ry + 1 < wo.y1 {
              let next = (y + ry + 1) &* width
              for x in x0..<x1 { sums[x] += tmp[next &+ x] }
            }
            if y - ry >= wo.y0 {
              let old = (y - ry) &* width
              for x in x0..<x1 { sums[x] -= tmp[old &+ x] }
            }
          }
        }
      }
    }
    return wo
  }

  /// Where face point (`u`, `v`) of the frame's face is, in subpixels.
  func project(_ frame: CardFrame, _ u: Double, _ v: Double) -> (x: Double, y: Double)? {
    guard let p = frame.transform.project(x: u, y: v) else { return nil }
    let lift = frame.extras.lift
    return (centreX + p.x * 2 * scale * lift, centreY + p.y * scale * lift)
  }

  /// The subpixels of cell (`column`, `row`): top left, top right, bottom
  /// left, bottom right.
  func cellIndices(column: Int, row: Int) -> [Int] {
    let top = (2 * row) * subWidth + 2 * column
    let bottom = top + subWidth
    return [top, top + 1, bottom, bottom + 1]
  }
}

/// The 3×3 projective map of the plane z = 0 under a 4×4 transform:
/// face (u, v) to view (x, y).
struct Homography {
  var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

  init(_ t: Matrix4) {
    m = (t[0, 0], t[0, 1], t[0, 3], t[1, 0], t[1, 1], t[1, 3], t[3, 0], t[3, 1], t[3, 3])
  }

  private init(rows m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)) {
    self.m = m
  }

  var inverse: Homography? {
    let (a, b, c, d, e, f, g, h, i) = m
    let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    guard abs(det) > 1e-12 else { return nil }
    return Homography(
      rows: (
        (e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det,
        (f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det,
        (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det
      ))
  }

  func apply(_ x: Double, _ y: Double) -> (Double, Double)? {
    let w = m.6 * x + m.7 * y + m.8
    guard abs(w) > 1e-12 else { return nil }
    return ((m.0 * x + m.1 * y + m.2) / w, (m.3 * x + m.4 * y + m.5) / w)
  }
}
