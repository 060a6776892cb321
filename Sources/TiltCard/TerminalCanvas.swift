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
    let (sampler, box, scale) = Self.faceSampler(
      frame, face: face, columns: columns, rows: rows, smooth: smooth)
    self.scale = scale
    (centreX, centreY) = (sampler.centreX, sampler.centreY)
    let count = 4 * columns * rows
    let subW = 2 * columns
    let subH = 2 * rows
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
        Self.backdropGradient(width: subW, height: subH)
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
    // chip's and the code's edges). A subpixel's material (`nil` where the
    // face covers none) is its kind: where a neighbour's differs, it is an edge.
    Self.drawFace(
      sampler, in: box, width: subW, colors: &colors, materials: &materials, glow: &glow,
      coverage: &coverage)
    let edges = Self.edges(of: materials, in: box, width: subW, height: subH)
    Self.sampleEdges(
      edges, sampler, width: subW, colors: &colors, materials: &materials, glow: &glow,
      coverage: &coverage)

    // The shadow: the card's outline moved down and away from the light and
    // blurred, as the page's two drop shadows (a tight one at 0.30, a wide
    // one at 0.20), from the same offsets and blur (CardExtras).
    // A terminal cell is some 14 points of the card at 80 × 24, so the
    // page's offsets are doubled to leave the card's edge at all. Without a
    // backdrop or a hard shadow there is nothing for it to darken.
    let x = frame.extras
    let sxPerPoint = 2 * scale * x.lift
    let syPerPoint = scale * x.lift
    let k = Self.shadowReach
    var scratch = cache.scratch
    var tight = ShadowLayer(values: cache.tight, window: (0, 0, 0, 0), cells: cache.tightCells)
    var wide = ShadowLayer(values: cache.wide, window: (0, 0, 0, 0), cells: cache.wideCells)
    (cache.scratch, cache.tight, cache.wide, cache.tightCells, cache.wideCells) = (
      [], [], [], [], []
    )
    defer {
      (cache.tight, cache.wide, cache.scratch) = (tight.values, wide.values, scratch)
      (cache.tightCells, cache.wideCells) = (tight.cells, wide.cells)
    }
    if backdrop || hardShadow {
      Self.shadowLayer(
        of: coverage, in: box, width: subW, height: subH,
        dx: k * 0.2 * x.shadowX * sxPerPoint, dy: k * (0.15 * x.shadowY + 1) * syPerPoint,
        blur: k * 0.15 * x.shadowBlur * syPerPoint, coarse: backdrop, layer: &tight,
        scratch: &scratch)
      Self.shadowLayer(
        of: coverage, in: box, width: subW, height: subH,
        dx: k * 1.2 * x.shadowX * sxPerPoint, dy: k * 1.3 * x.shadowY * syPerPoint,
        blur: k * 1.6 * x.shadowBlur * syPerPoint, coarse: backdrop, layer: &wide, scratch: &scratch
      )
    }
    let drawn = Self.union(Self.union(box, tight.window), wide.window)
    drawnBox = drawn
    stage.withUnsafeBufferPointer { stage in
      Self.restore(&colors, count: count, width: subW, last: lastColors, keep: drawn) {
        backdrop ? stage[$0] : nil
      }
    }
    Self.composite(
      drawn, width: subW, stage: stage, tight: tight, wide: wide, card: box, backdrop: backdrop,
      hardShadow: hardShadow, smooth: smooth, colors: &colors, materials: &materials,
      coverage: coverage)
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

  /// How a canvas of `columns` × `rows` cells samples `face` for `frame`,
  /// the subpixels the card can cover there (``cardBox(_:halfWidth:halfHeight:centreX:centreY:sxPerPoint:syPerPoint:width:height:)``),
  /// and its columns (cell widths) a point: the card and its shadow in about
  /// 77 % of the width and 74 % of the height (a row is two cell widths),
  /// its centre a little above the middle.
  static func faceSampler(
    _ frame: CardFrame, face: TerminalCardFace, columns: Int, rows: Int, smooth: Bool
  ) -> (sampler: TerminalFaceSampler, box: Window, scale: Double) {
    let (w, h) = (face.width, face.height)
    let scale = min(Double(columns) / (w * 1.3), Double(2 * rows) / (h * 1.35))
    // A corner at least 5 subpixels (2½ rows) tall, so it reads as round
    // at 40 × 12 too; at 80 × 24 and up the page's corner is larger.
    var face = face
    face.minimumCornerExtent = 5 / scale
    let centreX = Double(columns)  // subpixels: 2 a column
    let centreY = Double(rows) * 0.98
    let sampler = TerminalFaceSampler(
      face: face, frame: frame, scale: scale, centreX: centreX, centreY: centreY, smooth: smooth)
    let box = cardBox(
      frame, halfWidth: w / 2, halfHeight: h / 2, centreX: centreX, centreY: centreY,
      sxPerPoint: 2 * scale * frame.extras.lift, syPerPoint: scale * frame.extras.lift,
      width: 2 * columns, height: 2 * rows)
    return (sampler, box, scale)
  }

  /// The subpixels the card can cover: the box of its projected corners
  /// (± `halfWidth`, ± `halfHeight` points; the whole `width` × `height`
  /// canvas where a corner is behind the eye), empty where it has no area.
  static func cardBox(
    _ frame: CardFrame, halfWidth hw: Double, halfHeight hh: Double, centreX: Double,
    centreY: Double, sxPerPoint: Double, syPerPoint: Double, width subW: Int, height subH: Int
  ) -> Window {
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
    return box
  }

  /// The backdrop of a `width` × `height` canvas, row by row: from
  /// `backdropCentre` a third down to `backdropEdge` at 0.6 of the width away.
  static func backdropGradient(width subW: Int, height subH: Int) -> [TerminalColor] {
    var out: [TerminalColor] = []
    out.reserveCapacity(subW * subH)
    for sy in 0..<subH {
      for sx in 0..<subW {
        let nx = (Double(sx) + 0.5) / Double(subW) - 0.5
        let ny = ((Double(sy) + 0.5) / Double(subH) - 0.35) * 0.8
        let d = min((nx * nx + ny * ny).squareRoot() / 0.6, 1)
        out.append(TerminalColor.mix(Self.backdropCentre, Self.backdropEdge, d))
      }
    }
    return out
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
