/// Places labels beside points on a chart: each where it collides with
/// nothing placed yet, led to its point by a line when it sits away from it,
/// and the labels of points on one spot as one column.
///
/// What a label must keep clear of, from the strictest level to the loosest:
/// 0, its box and leader cross nothing; 1, its box crosses no text, mark or
/// leader and its leader no text (it may cross a mark or a ring); 2, its box
/// overlaps no text or mark. A label takes the first clear place at the
/// strictest level that has one.
struct LabelPlacer {
  /// The area every label stays inside.
  let area: (x0: Double, y0: Double, x1: Double, y1: Double)
  /// The marks and the labels placed so far.
  var obstacles: [TextBox] = []
  /// Rings around marked points: only the strictest level keeps clear of them.
  var rings: [TextBox] = []

  init(area: (x0: Double, y0: Double, x1: Double, y1: Double)) { self.area = area }

  /// The box that `Canvas.text` will record for `label` drawn centred at `c`.
  static func labelBox(
    _ label: String, at c: (Double, Double), size: Double, width w: Double, kind: TextBox.Kind
  ) -> TextBox {
    TextBox(
      x0: c.0 - w / 2, y0: c.1 - 0.6 * size, x1: c.0 + w / 2, y1: c.1 + 0.65 * size, kind: kind,
      text: label)
  }

  func isInArea(_ box: TextBox) -> Bool {
    box.x0 >= area.x0 && box.x1 <= area.x1 && box.y0 >= area.y0 && box.y1 <= area.y1
  }

  /// Whether `box`, led to from `p`, is clear at `level` (see the type);
  /// `also` holds boxes not drawn yet.
  func isClear(
    _ box: TextBox, from p: (Double, Double), level: Int, leader: Bool, also: [TextBox] = [],
    on canvas: Canvas
  ) -> Bool {
    guard !obstacles.contains(where: box.overlaps), !also.contains(where: box.overlaps) else {
      return false
    }
    if level < 2 {
      guard !canvas.leaders.contains(where: { $0.crosses(box) }) else { return false }
    }
    if level == 0 { guard !rings.contains(where: box.overlaps) else { return false } }
    if level < 2, leader, let line = LabelPlacer.leaderLine(from: p, to: box) {
      let crossable = level == 0 ? obstacles + rings : obstacles.filter { !$0.text.isEmpty }
      if (crossable + also).contains(where: { !$0.contains(p) && line.crosses($0) }) {
        return false
      }
    }
    return true
  }

  /// Draws `label` centred at `c`, with its leader from `p` when it needs one.
  mutating func draw(
    _ label: String, at c: (Double, Double), near p: (Double, Double), size: Double,
    kind: TextBox.Kind, fill: String, weight: String? = nil, leader: Bool,
    on canvas: inout Canvas
  ) {
    let box = canvas.text(
      label, x: c.0, y: c.1 + size * 0.35, size: size, anchor: "middle", weight: weight,
      fill: fill, kind: kind)
    obstacles.append(box)
    if leader, let line = LabelPlacer.leaderLine(from: p, to: box) {
      canvas.leaders.append(line)
      canvas.add(
        "<line x1=\"\(f(line.x0))\" y1=\"\(f(line.y0))\" x2=\"\(f(line.x1))\" y2=\"\(f(line.y1))\" stroke=\"\(fill)\" stroke-width=\"1\"/>\n"
      )
    }
  }

  /// Draws `label` near `p`: at the first of `distances` and sixteen
  /// directions where it is clear, else at the first place inside the area.
  mutating func place(
    _ label: String, near p: (Double, Double), size: Double, distances: [Double],
    kind: TextBox.Kind, fill: String, weight: String? = nil, leader: Bool,
    on canvas: inout Canvas
  ) {
    let w = Canvas.textWidth(label, size: size, bold: weight != nil)
    let h = size * 1.15
    var fallback: (Double, Double)?
    for level in 0..<3 {
      for r in distances {
        for (dx, dy) in [
          (1.0, 0.0), (-1, 0), (0, -1), (0, 1), (1, -1), (-1, -1), (1, 1), (-1, 1),
          (0.5, -1), (-0.5, -1), (0.5, 1), (-0.5, 1), (1, -0.5), (-1, -0.5), (1, 0.5), (-1, 0.5),
        ] {
          let c = (p.0 + dx * (r + (dx == 0 ? 0 : w / 2)), p.1 + dy * (r + (dy == 0 ? 0 : h / 2)))
          let box = LabelPlacer.labelBox(label, at: c, size: size, width: w, kind: kind)
          guard isInArea(box) else { continue }
          if fallback == nil { fallback = c }
          guard isClear(box, from: p, level: level, leader: leader, on: canvas) else { continue }
          draw(
            label, at: c, near: p, size: size, kind: kind, fill: fill, weight: weight,
            leader: leader, on: &canvas)
          return
        }
      }
    }
    if let fallback {
      draw(
        label, at: fallback, near: p, size: size, kind: kind, fill: fill, weight: weight,
        leader: leader, on: &canvas)
    }
  }

  /// The labels of a cluster of points as one column beside it, at the
  /// first place where every label is clear (level 0, else 1); `false` when
  /// there is none.
  mutating func placeColumn(
    _ labels: [String], at points: [(Double, Double)], size: Double, distances: [Double],
    fill: String, on canvas: inout Canvas
  ) -> Bool {
    let widths = labels.map { Canvas.textWidth($0, size: size) }
    let columns = LabelPlacer.columnPlaces(
      of: points, widths: widths, lineHeight: size * 1.25 + 1, distances: distances, within: area)
    for level in 0..<2 {
      for column in columns {
        let boxes = zip(labels, zip(column, widths)).map {
          LabelPlacer.labelBox($0, at: $1.0, size: size, width: $1.1, kind: .pointLabel)
        }
        guard boxes.allSatisfy(isInArea) else { continue }
        let clear = boxes.indices.allSatisfy { k in
          isClear(
            boxes[k], from: points[k], level: level, leader: true,
            also: boxes.indices.filter { $0 != k }.map { boxes[$0] }, on: canvas)
        }
        guard clear else { continue }
        for k in labels.indices {
          draw(
            labels[k], at: column[k], near: points[k], size: size, kind: .pointLabel, fill: fill,
            leader: true, on: &canvas)
        }
        return true
      }
    }
    return false
  }

  /// The line from a point to its label's box, ending at the box; `nil`
  /// when the label is close enough to need none.
  static func leaderLine(from p: (Double, Double), to box: TextBox) -> Leader? {
    // The centre `labelBox` drew it around (0.6 of the 1.25 sizes above it).
    let c = ((box.x0 + box.x1) / 2, box.y0 + (box.y1 - box.y0) * 0.6 / 1.25)
    guard (c.0 - p.0).magnitude + (c.1 - p.1).magnitude > 14 else { return nil }
    return Leader(
      x0: p.0, y0: p.1, x1: min(max(p.0, box.x0), box.x1), y1: min(max(p.1, box.y0), box.y1),
      text: box.text)
  }

  /// The points on one spot (closer than `within` pixels, chained), as
  /// lists of indices in rank order; the lists in the order of their first
  /// rank. A point alone is a list of one.
  static func clusters(_ points: [(Double, Double)], within: Double) -> [[Int]] {
    var group = Array(points.indices)
    func root(_ i: Int) -> Int { group[i] == i ? i : root(group[i]) }
    for i in points.indices {
      for j in points.indices where j > i {
        let dx = points[i].0 - points[j].0
        let dy = points[i].1 - points[j].1
        if dx * dx + dy * dy < within * within {
          let (a, b) = (root(i), root(j))
          group[max(a, b)] = min(a, b)
        }
      }
    }
    var lists: [Int: [Int]] = [:]
    for i in points.indices { lists[root(i), default: []].append(i) }
    return lists.keys.sorted().map { lists[$0]! }
  }

  /// The label centres of a cluster's labels stacked in one column beside
  /// it, one candidate per side, distance and shift, in order of preference.
  /// The column's near edge is one line for every label, beyond every point
  /// of the cluster, so a leader from a point reaches that edge only at its
  /// own label and no leader runs through another label of the column.
  /// `widths` are the labels' widths, top to bottom; `lineHeight` the pitch.
  static func columnPlaces(
    of points: [(Double, Double)], widths: [Double], lineHeight: Double,
    distances: [Double], within area: (x0: Double, y0: Double, x1: Double, y1: Double)
  ) -> [[(Double, Double)]] {
    let minX = points.map(\.0).min()!
    let maxX = points.map(\.0).max()!
    let midY = points.map(\.1).reduce(0, +) / Double(points.count)
    let height = lineHeight * Double(widths.count)
    var shifts = [0.0]
    for k in 1...widths.count { shifts += [-Double(k), Double(k)] }
    var places: [[(Double, Double)]] = []
    for r in distances {
      for side in [1.0, -1] {
        let edge = side > 0 ? maxX + r : minX - r
        for shift in shifts {
          // The column's top, moved inside the area when it would leave it.
          var top = midY - height / 2 + shift * lineHeight
          top = min(max(top, area.y0), area.y1 - height)
          places.append(
            widths.enumerated().map { k, w in
              (edge + side * w / 2, top + lineHeight * (Double(k) + 0.5))
            })
        }
      }
    }
    return places
  }
}
