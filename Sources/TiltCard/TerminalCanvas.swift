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
  let cardBox: Window
  /// The subpixels this frame drew (the card's box and its shadow's):
  /// columns `x0..<x1`, rows `y0..<y1`. Outside it every subpixel is the
  /// plain backdrop (or `nil` without one), with no coverage, sheen or
  /// material.
  let drawnBox: Window

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
    let scale = min(Double(columns) / (w * 1.3), Double(2 * rows) / (h * 1.35))
    self.scale = scale
    // A corner at least 5 subpixels (2½ rows) tall, so it reads as round
    // at 40 × 12 too; at 80 × 24 and up the page's corner is larger.
    let face = {
      var face = face
      face.minimumCornerExtent = 5 / scale
      return face
    }()
    let centreX = Double(columns)  // subpixels: 2 a column
    let centreY = Double(rows) * 0.98
    self.centreX = centreX
    self.centreY = centreY
    let count = 4 * columns * rows
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

    let plane = face.plane(frame.face)
    // Inside these the face has no outline or hairline (and no corner
    // where both hold).
    let (innerU, innerV) = (hw - rim, hh - rim)
    let (cornerU, cornerV) = (hw - extent, hh - extent)

    // One sample of the face at face point (u, v): `face.paint` (whose
    // gradient is the plane's) lit.
    @inline(__always)
    func shade(_ u: Double, _ v: Double) -> (TerminalColor, TerminalCardFace.Material, Double)? {
      let (au, av) = (abs(u), abs(v))
      if au <= innerU && av <= innerV && (au <= cornerU || av <= cornerV) && !plane.inInset(u, v) {
        // The plain inside: no outline, hairline or inset here.
        let s = face.sheen(u, v, x: x.sheenX, y: x.sheenY)
        return (plane.color(u, v).screened(s).scaled(light), .face, s)
      }
      guard face.contains(u, v) else { return nil }
      var c = plane.color(u, v)
      var material = TerminalCardFace.Material.face
      if plane.inInset(u, v) {
        guard let painted = face.paint(frame.face, u, v) else { return nil }
        (c, material) = painted
      }
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
    if box.x0 >= box.x1 || box.y0 >= box.y1 { box = (0, 0, 0, 0) }
    cardBox = box

    // The buffers, each plain again outside what this frame draws into it
    // (the face's inside the card's box, the colours' inside the drawn box).
    cache.startCanvas()
    var colors = cache.colors
    var coverage = cache.coverage
    var materials = cache.materials
    var glow = cache.glow
    (cache.colors, cache.coverage, cache.materials, cache.glow) = ([], [], [], [])
    func last<T>(_ buffer: [T]) -> Window? {
      cache.drawnBox(of: buffer, width: subW, height: subH, backdrop: backdrop)
    }
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
    // Known where the colours were drawn, or plain throughout from here.
    var lastColors = last(colors)
    if lastColors == nil || colors.count != count {
      stage.withUnsafeBufferPointer { stage in
        Self.restore(&colors, count: count, width: subW, last: nil, keep: box) {
          backdrop ? stage[$0] : nil
        }
      }
      lastColors = (0, 0, 0, 0)
    }
    Self.restore(&coverage, count: count, width: subW, last: last(coverage), keep: box) { _ in 0 }
    Self.restore(&materials, count: count, width: subW, last: last(materials), keep: box) { _ in
      nil
    }
    Self.restore(&glow, count: count, width: subW, last: last(glow), keep: box) { _ in 0 }

    // The middle of each subpixel of the box first (all of it written);
    // then 2 × 2 samples where a neighbour differs (the outline, the
    // chip's and the code's edges). Along a row the map's numerators and
    // denominator are linear in the column: each is its value at the row's
    // start plus a step per subpixel. Away from the outline, its hairline,
    // the corners and the chip or code, a sample is the gradient and the sheen.
    // A subpixel's material (`nil` where the face covers none) is its kind:
    // where a neighbour's differs, it is an edge.
    let (sheenX, sheenY) = (x.sheenX, x.sheenY)
    let (stepU, stepV, stepW) = (m.0 * pointsPerSX, m.3 * pointsPerSX, m.6 * pointsPerSX)
    let drawsFace = inverse != nil
    colors.withUnsafeMutableBufferPointer { colors in
      materials.withUnsafeMutableBufferPointer { materials in
        glow.withUnsafeMutableBufferPointer { glow in
          coverage.withUnsafeMutableBufferPointer { coverage in
            // The buffers' starts, held (a store through one cannot move another).
            guard let colors = colors.baseAddress, let materials = materials.baseAddress,
              let glow = glow.baseAddress, let coverage = coverage.baseAddress
            else { return }
            // A subpixel k of a row with the test (the inside, or the face
            // sampled whole); a run of them known to be inside.
            @inline(__always)
            func tested(
              _ ks: Range<Int>, row: Int, _ u0: Double, _ v0: Double, _ w0: Double
            ) {
              for kk in ks {
                let i = row &+ kk
                let k = Double(kk)
                let w = w0 + k * stepW
                if drawsFace && abs(w) > 1e-12 {
                  let r = 1 / w
                  let u = (u0 + k * stepU) * r
                  let v = (v0 + k * stepV) * r
                  if let (c, material, s) = shade(u, v) {
                    colors[i] = c
                    materials[i] = material
                    glow[i] = s
                    coverage[i] = 1
                    continue
                  }
                }
                colors[i] = nil
                materials[i] = nil
                glow[i] = 0
                coverage[i] = 0
              }
            }
            @inline(__always)
            func inside(
              _ ks: Range<Int>, row: Int, _ u0: Double, _ v0: Double, _ w0: Double
            ) {
              for kk in ks {
                let i = row &+ kk
                let k = Double(kk)
                let r = 1 / (w0 + k * stepW)
                let u = (u0 + k * stepU) * r
                let v = (v0 + k * stepV) * r
                let s = face.sheen(u, v, x: sheenX, y: sheenY)
                colors[i] = plane.color(u, v).screened(s).scaled(light)
                materials[i] = .face
                glow[i] = s
                coverage[i] = 1
              }
            }
            var spans = TerminalFaceSpans()
            // In a corner, |x|⁵ + |y|⁵ ≤ 1 holds in the square of side 0.87
            // (2 · 0.87⁵ < 1): a point a hairline inside it is neither out
            // nor on the hairline.
            let square = 0.87 * extent - rim
            let bounds = TerminalFaceSpans.Bounds(
              innerU: innerU, innerV: innerV, cornerU: cornerU, cornerV: cornerV,
              squareU: cornerU + square, squareV: cornerV + square, inset: plane.inset)
            let count = box.x1 - box.x0
            for sy in box.y0..<box.y1 {
              let vy = (Double(sy) + 0.5 - centreY) * pointsPerSY
              let vx0 = (Double(box.x0) + 0.5 - centreX) * pointsPerSX
              let u0 = m.0 * vx0 + m.1 * vy + m.2
              let v0 = m.3 * vx0 + m.4 * vy + m.5
              let w0 = m.6 * vx0 + m.7 * vy + m.8
              // Subpixel k of the row is at index row + k.
              let row = sy &* subW &+ box.x0
              if drawsFace {
                spans.find(
                  u0: u0, v0: v0, w0: w0, stepU: stepU, stepV: stepV, stepW: stepW, count: count,
                  bounds: bounds)
              }
              var k = 0
              for run in drawsFace ? spans.runs : [] {
                tested(k..<run.start, row: row, u0, v0, w0)
                inside(run.start..<run.end, row: row, u0, v0, w0)
                k = run.end
              }
              tested(k..<count, row: row, u0, v0, w0)
            }
          }
        }
      }
    }
    // The edges: eight subpixels at a time where all are like their neighbours.
    var edges: [(Int, Int)] = []
    edges.reserveCapacity(4 * (box.x1 - box.x0 + box.y1 - box.y0))
    materials.withUnsafeBufferPointer { materials in
      guard let start = materials.baseAddress else { return }
      let bytes = UnsafeRawPointer(start)
      @inline(__always) func word(_ i: Int) -> UInt64 {
        bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      }
      @inline(__always) func isEdge(_ sx: Int, _ sy: Int) -> Bool {
        let i = sy &* subW &+ sx
        let k = materials[i]
        return (sx > 0 && materials[i &- 1] != k) || (sx &+ 1 < subW && materials[i &+ 1] != k)
          || (sy > 0 && materials[i &- subW] != k)
          || (sy &+ 1 < subH && materials[i &+ subW] != k)
      }
      for sy in box.y0..<box.y1 {
        // Eight at a time where every neighbour is on the canvas.
        let inside = sy > 0 && sy &+ 1 < subH
        var sx = box.x0
        while sx < box.x1 {
          let i = sy &* subW &+ sx
          if inside && sx > 0 && sx &+ 8 < subW && sx &+ 8 <= box.x1 {
            let middle = word(i)
            if middle == word(i &- 1) && middle == word(i &+ 1) && middle == word(i &- subW)
              && middle == word(i &+ subW)
            {
              sx &+= 8
              continue
            }
          }
          for x in sx..<min(sx &+ 8, box.x1) where isEdge(x, sy) { edges.append((x, sy)) }
          sx = min(sx &+ 8, box.x1)
        }
      }
    }
    colors.withUnsafeMutableBufferPointer { colors in
      materials.withUnsafeMutableBufferPointer { materials in
        glow.withUnsafeMutableBufferPointer { glow in
          coverage.withUnsafeMutableBufferPointer { coverage in
            for (sx, sy) in edges {
              let i = sy * subW + sx
              var sum = TerminalColor(0, 0, 0)
              var hits = 0
              var glowSum = 0.0
              var counts = (0, 0, 0)
              // At (¼, ¼), (¾, ¼), (¼, ¾) and (¾, ¾) of the subpixel.
              for j in 0..<4 {
                let (ox, oy) = (j & 1 == 0 ? 0.25 : 0.75, j < 2 ? 0.25 : 0.75)
                guard let (c, material, s) = sample(Double(sx) + ox, Double(sy) + oy) else {
                  continue
                }
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
        }
      }
    }

    // The shadow: the card's outline moved down and away from the light and
    // blurred, as the page's two drop shadows (a tight one at 0.30, a wide
    // one at 0.20), from the same offsets and blur (CardExtras).
    // A terminal cell is some 14 points of the card at 80 × 24, so the
    // page's offsets are doubled to leave the card's edge at all. Without a
    // backdrop or a hard shadow there is nothing for it to darken.
    let k = Self.shadowReach
    var scratch = cache.scratch
    var tight = ShadowLayer(values: cache.tight, window: (0, 0, 0, 0))
    var wide = ShadowLayer(values: cache.wide, window: (0, 0, 0, 0))
    (cache.scratch, cache.tight, cache.wide) = ([], [], [])
    defer { (cache.tight, cache.wide, cache.scratch) = (tight.values, wide.values, scratch) }
    if backdrop || hardShadow {
      tight.window = Self.shadowLayer(
        of: coverage, in: box, width: subW, height: subH,
        dx: k * 0.2 * x.shadowX * sxPerPoint, dy: k * (0.15 * x.shadowY + 1) * syPerPoint,
        blur: k * 0.15 * x.shadowBlur * syPerPoint, layer: &tight.values, scratch: &scratch)
      wide.window = Self.shadowLayer(
        of: coverage, in: box, width: subW, height: subH,
        dx: k * 1.2 * x.shadowX * sxPerPoint, dy: k * 1.3 * x.shadowY * syPerPoint,
        blur: k * 1.6 * x.shadowBlur * syPerPoint, layer: &wide.values, scratch: &scratch)
    }
    let drawn = Self.union(Self.union(box, tight.window), wide.window)
    drawnBox = drawn
    stage.withUnsafeBufferPointer { stage in
      Self.restore(&colors, count: count, width: subW, last: lastColors, keep: drawn) {
        backdrop ? stage[$0] : nil
      }
    }
    let (tw, ww) = (tight.window, wide.window)
    let depth = Self.shadowDepth
    colors.withUnsafeMutableBufferPointer { colors in
      materials.withUnsafeMutableBufferPointer { materials in
        coverage.withUnsafeBufferPointer { coverage in
          tight.values.withUnsafeBufferPointer { tight in
            wide.values.withUnsafeBufferPointer { wide in
              stage.withUnsafeBufferPointer { stage in
                // Subpixels a ..< b of a row, each layer read where `has…`
                // (the shadow is 0 outside a layer's window).
                @inline(__always)
                func run(_ a: Int, _ b: Int, hasTight: Bool, hasWide: Bool) {
                  for i in a..<b {
                    let cover = coverage[i]
                    guard cover < 1 else { continue }
                    let t = hasTight ? tight[i] : 0
                    let w = hasWide ? wide[i] : 0
                    // With no shadow (t = w = 0) the backdrop as it is (scaled by 1).
                    let alpha = 1 - (1 - 0.30 * t) * (1 - 0.20 * w)
                    var under: TerminalColor?
                    if backdrop {
                      under = stage[i].scaled(1 - min(depth * alpha, 0.8))
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
                  edges.sort()
                  let row = sy &* subW
                  for k in 0..<(edges.count &- 1) where edges[k] < edges[k &+ 1] {
                    let (a, b) = (edges[k], edges[k &+ 1])
                    let hasTight = inTight && a >= tw.x0 && b <= tw.x1
                    let hasWide = inWide && a >= ww.x0 && b <= ww.x1
                    switch (hasTight, hasWide) {
                    case (true, true): run(row &+ a, row &+ b, hasTight: true, hasWide: true)
                    case (true, false): run(row &+ a, row &+ b, hasTight: true, hasWide: false)
                    case (false, true): run(row &+ a, row &+ b, hasTight: false, hasWide: true)
                    case (false, false): run(row &+ a, row &+ b, hasTight: false, hasWide: false)
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    cache.noteDrawn(colors, width: subW, height: subH, backdrop: backdrop, box: drawn)
    for buffer in [coverage, glow] {
      cache.noteDrawn(buffer, width: subW, height: subH, backdrop: backdrop, box: box)
    }
    cache.noteDrawn(materials, width: subW, height: subH, backdrop: backdrop, box: box)
    self.colors = colors
    self.coverage = coverage
    self.materials = materials
    self.glow = glow
  }

  /// A rectangle of subpixels: columns `x0..<x1`, rows `y0..<y1`.
  typealias Window = (x0: Int, y0: Int, x1: Int, y1: Int)

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
