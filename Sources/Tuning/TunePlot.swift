import Attitude
import Foundation

/// The picture of a tuning run as one SVG: the reference-relative pitch and
/// roll over time (unfiltered, recommended, reference; rest shaded), beside a
/// zoom on the busiest stretch when the recording is long, then jitter
/// against lag for every setting tried, each point numbered by its rank.
///
/// Every piece of text goes through ``text(_:x:y:size:anchor:kind:)``, which
/// records its box, so a test can check that nothing leaves the canvas and
/// that no two legend entries overlap.
public struct TunePlot: Sendable {
  public struct Series: Sendable {
    var name: String
    var color: String
    var width: Double
    var dash: Bool
    /// Drawn as steps (the value holds until the next sample), as a stick's is.
    var steps = false
    var times: [Double]
    /// Card → reference rotations, one per time.
    var attitudes: [Quaternion]
  }

  /// A text's box on the canvas, in pixels (y down).
  struct TextBox {
    enum Kind { case title, label, tick, legend, pointLabel, callout, list }
    var x0: Double
    var y0: Double
    var x1: Double
    var y1: Double
    var kind: Kind
    var text: String

    func overlaps(_ o: TextBox) -> Bool { x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1 }
    func contains(_ p: (Double, Double)) -> Bool { p.0 > x0 && p.0 < x1 && p.1 > y0 && p.1 < y1 }
  }

  var title: String
  var subtitle: [String]
  var series: [Series]
  /// Which of `series` the zoom window follows (the reference).
  var busiestFrom: Int
  var rest: [(Double, Double)]
  /// Ranked best first (or in the order tried when `ranked` is false).
  var scores: [SettingScore]
  var ranked: Bool
  var recommended: FilterSetting
  var defaultSetting: FilterSetting
  /// Why the chart of jitter against lag is missing, when it is.
  var scatterNote: String?

  public static let width = 1000.0
  /// Recordings longer than this get a zoom on their busiest stretch.
  static let zoomAbove = 40.0
  static let zoomLength = 10.0

  private let margin = 14.0
  private let left = 66.0
  private let panelHeight = 170.0

  /// The SVG, its height, and the box of every text in it.
  /// A leader line from a point to its label, pixels.
  struct Leader {
    var x0: Double
    var y0: Double
    var x1: Double
    var y1: Double
    /// The label it leads to.
    var text: String

    /// Whether the line passes through `box` (its last 1.5 pixels, at its own label, aside).
    func crosses(_ box: TextBox) -> Bool {
      let length = ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot()
      guard length > 0 else { return false }
      let steps = max(2, Int(length))
      for k in 0...steps {
        let u = Double(k) / Double(steps)
        guard u * length <= length - 1.5 else { break }
        if box.contains((x0 + u * (x1 - x0), y0 + u * (y1 - y0))) { return true }
      }
      return false
    }
  }

  func render() -> (svg: String, height: Double, boxes: [TextBox]) {
    let (svg, height, boxes, _) = renderWithLeaders()
    return (svg, height, boxes)
  }

  /// The SVG, its height, the box of every text and every leader line.
  func renderWithLeaders() -> (svg: String, height: Double, boxes: [TextBox], leaders: [Leader]) {
    var canvas = Canvas(width: TunePlot.width)
    var y = margin + 18
    canvas.text(title, x: margin, y: y, size: 16, weight: "bold", kind: .title)
    for sentence in subtitle {
      for line in wrap(sentence, size: 12, width: TunePlot.width - 2 * margin) {
        y += 17
        canvas.text(line, x: margin, y: y, size: 12, fill: "#444", kind: .title)
      }
    }
    y += 14
    let zoom = zoomWindow()
    var items: [LegendItem] = series.map {
      LegendItem(name: $0.name, color: $0.color, swatch: $0.dash ? .dashed : .line)
    }
    items.append(LegendItem(name: "at rest", color: "#dfe8f5", swatch: .box))
    if zoom != nil {
      items.append(LegendItem(name: "zoomed stretch", color: "#555555", swatch: .outline))
    }
    y = legend(items, top: y, into: &canvas)
    y += 26
    for (name, angle) in [("pitch (°)", Angle.pitch), ("roll (°)", Angle.roll)] {
      timePanels(angle, label: name, top: y, zoom: zoom, into: &canvas)
      y += panelHeight + 58
    }
    y = scatter(top: y - 10, into: &canvas)
    let height = (y + margin).rounded(.up)
    let svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(TunePlot.width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(TunePlot.width)) \(Int(height))\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      + canvas.body + "</svg>\n"
    return (svg, height, canvas.boxes, canvas.leaders)
  }

  /// The plot as an SVG document.
  public func svg() -> String { render().svg }

  // MARK: time panels

  enum Angle { case pitch, roll }

  /// The busiest stretch of `zoomLength` seconds: where the reference turns the most.
  func zoomWindow() -> (Double, Double)? {
    let s = series[busiestFrom]
    guard let t0 = s.times.first, let t1 = s.times.last, t1 - t0 > TunePlot.zoomAbove else {
      return nil
    }
    var turn = [0.0]
    for i in 1..<s.attitudes.count {
      turn.append(turn[i - 1] + rotationAngle(s.attitudes[i - 1], s.attitudes[i]))
    }
    var best = (0.0, t0)
    var j = 0
    for i in s.times.indices {
      while s.times[j] < s.times[i] - TunePlot.zoomLength { j += 1 }
      if s.times[i] - t0 >= TunePlot.zoomLength, turn[i] - turn[j] > best.0 {
        best = (turn[i] - turn[j], s.times[i] - TunePlot.zoomLength)
      }
    }
    return (best.1, best.1 + TunePlot.zoomLength)
  }

  /// Pitch or roll of each rotation, degrees, drawn continuously: the
  /// rotation from the start as a rotation vector, its component about the
  /// card's x axis (pitch) and y axis (roll). For a tilt of a few tens of
  /// degrees these are the Euler pitch and roll; unlike them they have no
  /// singularity at ±90° pitch, where Euler roll jumps by 180° (0 to ±175° on
  /// BROAD 02 as it turns past upright), and past a half turn they go on
  /// (the equivalent vector nearest the one before) instead of wrapping.
  /// `nan` never occurs; the values follow the motion: a step between two
  /// samples is at most π/2 times the rotation between them.
  static func angles(_ times: [Double], _ attitudes: [Quaternion], _ angle: Angle) -> (
    times: [Double], values: [Double]
  ) {
    var out: [Double] = []
    out.reserveCapacity(attitudes.count)
    var previous: Vector3?
    for q in attitudes {
      var v = q.rotationVector
      let length = v.length
      if let p = previous, length > 1e-12 {
        // v + 2πk·v̂ is the same rotation: the one nearest the previous vector.
        let unit = v / length
        var best = v
        for k in [-2.0, -1, 1, 2] {
          let candidate = v + unit * (2 * .pi * k)
          if (candidate - p).length < (best - p).length { best = candidate }
        }
        v = best
      }
      previous = v
      out.append(degrees(angle == .pitch ? v.x : v.y))
    }
    return (times, out)
  }

  private func timePanels(
    _ angle: Angle, label: String, top: Double, zoom: (Double, Double)?, into canvas: inout Canvas
  ) {
    let right = TunePlot.width - margin
    let values = series.map { TunePlot.angles($0.times, $0.attitudes, angle) }
    guard let t0 = series[0].times.first, let t1 = series[0].times.last, t1 > t0 else { return }
    if let zoom {
      let split = left + (right - left) * 0.6
      panel(
        values, label: label, from: t0, to: t1, x0: left, x1: split - 20, top: top,
        title: "whole recording", mark: zoom, into: &canvas)
      panel(
        values, label: nil, from: zoom.0, to: zoom.1, x0: split + 36, x1: right, top: top,
        title: "zoom: the busiest \(TunePlot.zoomLength.compact) s", mark: nil, into: &canvas)
    } else {
      panel(
        values, label: label, from: t0, to: t1, x0: left, x1: right, top: top, title: nil,
        mark: nil, into: &canvas)
    }
  }

  private func panel(
    _ data: [(times: [Double], values: [Double])], label: String?, from t0: Double, to t1: Double,
    x0: Double, x1: Double, top: Double, title: String?, mark: (Double, Double)?,
    into canvas: inout Canvas
  ) {
    var low = Double.infinity
    var high = -Double.infinity
    for d in data {
      for (t, v) in zip(d.times, d.values) where t >= t0 && t <= t1 && !v.isNaN {
        low = min(low, v)
        high = max(high, v)
      }
    }
    if !low.isFinite { (low, high) = (-1, 1) }
    if high - low < 1 { (low, high) = ((low + high) / 2 - 0.5, (low + high) / 2 + 0.5) }
    let yAxis = Axis.linear(low, high, target: 5)
    let xAxis = Axis.linear(t0, t1, target: x1 - x0 > 500 ? 10 : 5, snap: false)
    let bottom = top + panelHeight
    func x(_ t: Double) -> Double { x0 + xAxis.fraction(t) * (x1 - x0) }
    func y(_ v: Double) -> Double { bottom - yAxis.fraction(v) * panelHeight }
    canvas.add("<g>\n")
    for (a, b) in rest where b >= t0 && a <= t1 {
      let xa = x(max(a, t0))
      let xb = x(min(b, t1))
      canvas.add(
        "<rect x=\"\(f(xa))\" y=\"\(f(top))\" width=\"\(f(max(xb - xa, 0.5)))\" height=\"\(f(panelHeight))\" fill=\"#dfe8f5\"/>\n"
      )
    }
    frame(
      x0: x0, x1: x1, top: top, xAxis: xAxis, yAxis: yAxis, xLabel: "time (s)", yLabel: label,
      into: &canvas)
    canvas.add(
      "<clipPath id=\"c\(Int(x0))-\(Int(top))\"><rect x=\"\(f(x0))\" y=\"\(f(top))\" width=\"\(f(x1 - x0))\" height=\"\(f(panelHeight))\"/></clipPath>\n"
    )
    for (d, s) in zip(data, series) {
      canvas.add(
        path(
          d.times, d.values, from: t0, to: t1, x: x, y: y, color: s.color, width: s.width,
          dash: s.dash, steps: s.steps, clip: "c\(Int(x0))-\(Int(top))"))
    }
    if let mark {
      canvas.add(
        "<rect x=\"\(f(x(mark.0)))\" y=\"\(f(top + 1))\" width=\"\(f(x(mark.1) - x(mark.0)))\" height=\"\(f(panelHeight - 2))\" fill=\"none\" stroke=\"#555555\" stroke-width=\"1.5\" stroke-dasharray=\"3 2\"/>\n"
      )
    }
    if let title {
      canvas.text(title, x: x0, y: top - 7, size: 12, fill: "#333", kind: .label)
    }
    canvas.add("</g>\n")
  }

  /// A path through the points in `t0…t1`: per pixel column, its first, lowest,
  /// highest and last point, so peaks survive; a `nan` value lifts the pen.
  private func path(
    _ times: [Double], _ values: [Double], from t0: Double, to t1: Double,
    x: (Double) -> Double, y: (Double) -> Double, color: String, width: Double, dash: Bool,
    steps: Bool = false, clip: String
  ) -> String {
    var d = ""
    var penDown = false
    var last: (Double, Double)?
    var column = Int.min
    var bucket: [(Double, Double)] = []
    func flush() {
      guard !bucket.isEmpty else { return }
      var keep = [bucket[0]]
      if bucket.count > 1 {
        let lo = bucket.min { $0.1 > $1.1 }!
        let hi = bucket.max { $0.1 > $1.1 }!
        keep += [lo, hi, bucket[bucket.count - 1]]
      }
      for p in keep {
        if steps, penDown, let last { d += "L\(f(p.0)) \(f(last.1))" }
        d += (penDown ? "L" : "M") + "\(f(p.0)) \(f(p.1))"
        penDown = true
        last = p
      }
      bucket = []
    }
    for (t, v) in zip(times, values) {
      guard t >= t0, t <= t1 else { continue }
      if v.isNaN {
        flush()
        penDown = false
        continue
      }
      let px = x(t)
      let c = Int(px.rounded(.down))
      if c != column {
        flush()
        column = c
      }
      bucket.append((px, y(v)))
    }
    flush()
    guard !d.isEmpty else { return "" }
    return
      "<path fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(width)\" stroke-linejoin=\"round\"\(dash ? " stroke-dasharray=\"5 3\"" : "") clip-path=\"url(#\(clip))\" d=\"\(d)\"/>\n"
  }

  // MARK: scatter

  private func scatter(top: Double, into canvas: inout Canvas) -> Double {
    let right = TunePlot.width - margin
    var y = top
    let families: [LegendItem] = [
      LegendItem(name: "no filter", color: "#555555", swatch: .dot),
      LegendItem(name: "low-pass", color: "#1d70b8", swatch: .dot),
      LegendItem(name: "One Euro", color: "#f08c00", swatch: .dot),
      LegendItem(name: "with --fusion-tau", color: "#777777", swatch: .square),
      LegendItem(name: "recommended", color: "#d62828", swatch: .ring),
      LegendItem(name: "default", color: "#1d3557", swatch: .ring),
    ]
    if ranked, scatterNote == nil { y = legend(families, top: y, into: &canvas) + 24 }
    let listX = left + (right - left) * 0.56 + 24
    let x0 = left
    let x1 = listX - 30
    let rows = scores.count
    let listHeight = Double(rows + 1) * 13.5
    let height = max(300, listHeight)
    let bottom = y + height
    guard ranked, scatterNote == nil else {
      canvas.add(
        "<rect x=\"\(f(x0))\" y=\"\(f(y))\" width=\"\(f(right - x0))\" height=\"60\" fill=\"#f6f6f6\" stroke=\"#999\"/>\n"
      )
      canvas.text(
        scatterNote ?? "not ranked", x: x0 + 10, y: y + 34, size: 12, fill: "#333", kind: .label)
      return y + 60
    }
    let lags = scores.map { $0.lag ?? 0 }
    let jitters = scores.map { $0.jitter ?? 0 }
    let xAxis = Axis.auto(lags, target: 6, floor: 0.1)
    let yAxis = Axis.auto(jitters, target: 5)
    func px(_ v: Double) -> Double { x0 + xAxis.fraction(v) * (x1 - x0) }
    func py(_ v: Double) -> Double { bottom - yAxis.fraction(v) * height }
    frame(
      x0: x0, x1: x1, top: y, height: height, xAxis: xAxis, yAxis: yAxis,
      xLabel: "lag (ms)" + (xAxis.isLog ? ", log scale" : ""),
      yLabel: "jitter at rest (°)" + (yAxis.isLog ? ", log scale" : ""), into: &canvas)
    // Points, then their labels where they collide with nothing placed yet.
    var obstacles: [TextBox] = []
    var rings: [TextBox] = []
    let points = scores.map { (px($0.lag ?? 0), py($0.jitter ?? 0)) }
    for (p, s) in zip(points, scores) {
      obstacles.append(
        TextBox(x0: p.0 - 5, y0: p.1 - 5, x1: p.0 + 5, y1: p.1 + 5, kind: .pointLabel, text: ""))
      let color = TunePlot.color(s.setting)
      if s.setting.fusionTau != nil {
        canvas.add(
          "<rect x=\"\(f(p.0 - 4))\" y=\"\(f(p.1 - 4))\" width=\"8\" height=\"8\" fill=\"\(color)\" stroke=\"white\" stroke-width=\"0.8\"/>\n"
        )
      } else {
        canvas.add(
          "<circle cx=\"\(f(p.0))\" cy=\"\(f(p.1))\" r=\"4.5\" fill=\"\(color)\" stroke=\"white\" stroke-width=\"0.8\"/>\n"
        )
      }
    }
    let plotArea = (x0: x0 + 2, y0: y + 2, x1: x1 - 2, y1: bottom - 2)
    /// The box that `canvas.text` will record for `label` drawn centred at `c`.
    func labelBox(
      _ label: String, at c: (Double, Double), size: Double, width w: Double, kind: TextBox.Kind
    )
      -> TextBox
    {
      TextBox(
        x0: c.0 - w / 2, y0: c.1 - 0.6 * size, x1: c.0 + w / 2, y1: c.1 + 0.65 * size, kind: kind,
        text: label)
    }
    func inPlotArea(_ box: TextBox) -> Bool {
      box.x0 >= plotArea.x0 && box.x1 <= plotArea.x1 && box.y0 >= plotArea.y0
        && box.y1 <= plotArea.y1
    }
    /// Whether `box`, led to from `p`, is clear at `level`: 0, its box and
    /// leader cross nothing (`also` holds boxes not drawn yet); 1, its box
    /// crosses no text, mark or leader and its leader no text (it may cross a
    /// mark or a ring); 2, its box overlaps no text or mark.
    func isClear(
      _ box: TextBox, from p: (Double, Double), level: Int, leader: Bool, also: [TextBox] = []
    ) -> Bool {
      guard !obstacles.contains(where: box.overlaps), !also.contains(where: box.overlaps) else {
        return false
      }
      if level < 2 {
        guard !canvas.leaders.contains(where: { $0.crosses(box) }) else { return false }
      }
      if level == 0 { guard !rings.contains(where: box.overlaps) else { return false } }
      if level < 2, leader, let line = leaderLine(from: p, to: box) {
        let crossable = level == 0 ? obstacles + rings : obstacles.filter { !$0.text.isEmpty }
        if (crossable + also).contains(where: { !$0.contains(p) && line.crosses($0) }) {
          return false
        }
      }
      return true
    }
    func draw(
      _ label: String, at c: (Double, Double), near p: (Double, Double), size: Double,
      kind: TextBox.Kind, fill: String, weight: String? = nil, leader: Bool
    ) {
      let box = canvas.text(
        label, x: c.0, y: c.1 + size * 0.35, size: size, anchor: "middle", weight: weight,
        fill: fill, kind: kind)
      obstacles.append(box)
      if leader, let line = leaderLine(from: p, to: box) {
        canvas.leaders.append(line)
        canvas.add(
          "<line x1=\"\(f(line.x0))\" y1=\"\(f(line.y0))\" x2=\"\(f(line.x1))\" y2=\"\(f(line.y1))\" stroke=\"\(fill)\" stroke-width=\"1\"/>\n"
        )
      }
    }
    func place(
      _ label: String, near p: (Double, Double), size: Double, distances: [Double],
      kind: TextBox.Kind,
      fill: String, weight: String? = nil, leader: Bool
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
            let box = labelBox(label, at: c, size: size, width: w, kind: kind)
            guard inPlotArea(box) else { continue }
            if fallback == nil { fallback = c }
            guard isClear(box, from: p, level: level, leader: leader) else { continue }
            draw(
              label, at: c, near: p, size: size, kind: kind, fill: fill, weight: weight,
              leader: leader)
            return
          }
        }
      }
      if let fallback {
        draw(
          label, at: fallback, near: p, size: size, kind: kind, fill: fill, weight: weight,
          leader: leader)
      }
    }
    /// The rank labels of a cluster of points as one column beside it, at the
    /// first place where every label is clear (level 0, else 1); `false` when
    /// there is none.
    func placeColumn(_ cluster: [Int], size: Double, distances: [Double]) -> Bool {
      let labels = cluster.map { "\($0 + 1)" }
      let widths = labels.map { Canvas.textWidth($0, size: size) }
      let columns = TunePlot.columnPlaces(
        of: cluster.map { points[$0] }, widths: widths, lineHeight: size * 1.25 + 1,
        distances: distances, within: plotArea)
      for level in 0..<2 {
        for column in columns {
          let boxes = zip(labels, zip(column, widths)).map {
            labelBox($0, at: $1.0, size: size, width: $1.1, kind: .pointLabel)
          }
          guard boxes.allSatisfy(inPlotArea) else { continue }
          let clear = boxes.indices.allSatisfy { k in
            isClear(
              boxes[k], from: points[cluster[k]], level: level, leader: true,
              also: boxes.indices.filter { $0 != k }.map { boxes[$0] })
          }
          guard clear else { continue }
          for (k, i) in cluster.enumerated() {
            draw(
              labels[k], at: column[k], near: points[i], size: size, kind: .pointLabel,
              fill: "#222", leader: true)
          }
          return true
        }
      }
      return false
    }
    /// The line from a point to its label's box, ending at the box; `nil`
    /// when the label is close enough to need none.
    func leaderLine(from p: (Double, Double), to box: TextBox) -> Leader? {
      // The centre `labelBox` drew it around (0.6 of the 1.25 sizes above it).
      let c = ((box.x0 + box.x1) / 2, box.y0 + (box.y1 - box.y0) * 0.6 / 1.25)
      guard (c.0 - p.0).magnitude + (c.1 - p.1).magnitude > 14 else { return nil }
      return Leader(
        x0: p.0, y0: p.1, x1: min(max(p.0, box.x0), box.x1), y1: min(max(p.1, box.y0), box.y1),
        text: box.text)
    }
    // The rings of the recommended and default points: no label on them if it can be helped.
    for setting in [recommended, defaultSetting] {
      guard let i = scores.firstIndex(where: { $0.setting == setting }) else { continue }
      let p = points[i]
      rings.append(
        TextBox(x0: p.0 - 9, y0: p.1 - 9, x1: p.0 + 9, y1: p.1 + 9, kind: .pointLabel, text: ""))
    }
    // The two callouts first, so they get the clearest places.
    for (setting, name, color) in [
      (recommended, "recommended", "#d62828"), (defaultSetting, "default", "#1d3557"),
    ] {
      guard let i = scores.firstIndex(where: { $0.setting == setting }) else { continue }
      let p = points[i]
      canvas.add(
        "<circle cx=\"\(f(p.0))\" cy=\"\(f(p.1))\" r=\"8\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
      )
      if setting == defaultSetting, setting == recommended { continue }
      place(
        name == "recommended" && setting == defaultSetting ? "recommended (default)" : name,
        near: p, size: 12, distances: [22, 40, 60], kind: .callout, fill: color, weight: "bold",
        leader: true)
    }
    // Points on one spot get their labels as one column, in rank order: the
    // leaders of labels placed one by one ran through the first ones.
    let distances = [7.0, 14, 24, 36, 50, 66, 84, 104]
    for cluster in TunePlot.clusters(points, within: 4) {
      if cluster.count > 1,
        placeColumn(cluster, size: 10, distances: distances.dropFirst().map { $0 })
      {
        continue
      }
      for i in cluster {
        place(
          "\(i + 1)", near: points[i], size: 10, distances: distances, kind: .pointLabel,
          fill: "#222", leader: true)
      }
    }
    // The key: rank and the options, as the table has them.
    var ly = y + 10
    canvas.text("rank  setting", x: listX, y: ly, size: 11, weight: "bold", kind: .list)
    for (i, s) in scores.enumerated() {
      ly += 13.5
      canvas.add(
        "<circle cx=\"\(f(listX + 3))\" cy=\"\(f(ly - 3.5))\" r=\"3\" fill=\"\(TunePlot.color(s.setting))\"/>\n"
      )
      canvas.text("\(i + 1)", x: listX + 26, y: ly, size: 10.5, anchor: "end", kind: .list)
      var line = s.setting.arguments.joined(separator: " ")
      if s.setting == defaultSetting { line += "  (default)" }
      canvas.text(
        line, x: listX + 32, y: ly, size: 10.5, weight: s.setting == recommended ? "bold" : nil,
        fill: s.setting == recommended ? "#d62828" : "#222", kind: .list)
    }
    return bottom + 40
  }

  static func color(_ setting: FilterSetting) -> String {
    switch setting.filter {
    case .none: return "#555555"
    case .lowpass: return "#1d70b8"
    case .oneEuro: return "#f08c00"
    }
  }

  // MARK: pieces

  private func frame(
    x0: Double, x1: Double, top: Double, height: Double? = nil, xAxis: Axis, yAxis: Axis,
    xLabel: String, yLabel: String?, into canvas: inout Canvas
  ) {
    let h = height ?? panelHeight
    let bottom = top + h
    canvas.add(
      "<rect x=\"\(f(x0))\" y=\"\(f(top))\" width=\"\(f(x1 - x0))\" height=\"\(f(h))\" fill=\"none\" stroke=\"#333\"/>\n"
    )
    for t in xAxis.ticks {
      let px = x0 + xAxis.fraction(t.value) * (x1 - x0)
      canvas.add(
        "<line x1=\"\(f(px))\" x2=\"\(f(px))\" y1=\"\(f(top))\" y2=\"\(f(bottom))\" stroke=\"#000\" stroke-opacity=\"0.08\"/>\n"
      )
      canvas.text(t.label, x: px, y: bottom + 18, size: 11, anchor: "middle", kind: .tick)
    }
    for t in yAxis.ticks {
      let py = bottom - yAxis.fraction(t.value) * h
      canvas.add(
        "<line x1=\"\(f(x0))\" x2=\"\(f(x1))\" y1=\"\(f(py))\" y2=\"\(f(py))\" stroke=\"#000\" stroke-opacity=\"0.08\"/>\n"
      )
      canvas.text(t.label, x: x0 - 5, y: py + 3.5, size: 11, anchor: "end", kind: .tick)
    }
    canvas.text(xLabel, x: (x0 + x1) / 2, y: bottom + 34, size: 12, anchor: "middle", kind: .label)
    if let yLabel {
      canvas.verticalText(yLabel, x: margin + 6, y: top + h / 2, size: 12)
    }
  }

  struct LegendItem {
    enum Swatch { case line, dashed, box, outline, dot, square, ring }
    var name: String
    var color: String
    var swatch: Swatch
  }

  /// One row of legend entries (more when they do not fit), each a swatch and
  /// its name, laid out from their measured widths; returns the bottom.
  private func legend(_ items: [LegendItem], top: Double, into canvas: inout Canvas) -> Double {
    var x = left
    var y = top + 10
    for item in items {
      let w = 22 + Canvas.textWidth(item.name, size: 12)
      if x + w > TunePlot.width - margin {
        x = left
        y += 18
      }
      let cy = y - 4
      switch item.swatch {
      case .line, .dashed:
        canvas.add(
          "<line x1=\"\(f(x))\" x2=\"\(f(x + 16))\" y1=\"\(f(cy))\" y2=\"\(f(cy))\" stroke=\"\(item.color)\" stroke-width=\"2\"\(item.swatch == .dashed ? " stroke-dasharray=\"5 3\"" : "")/>\n"
        )
      case .box:
        canvas.add(
          "<rect x=\"\(f(x + 2))\" y=\"\(f(cy - 6))\" width=\"12\" height=\"12\" fill=\"\(item.color)\" stroke=\"#aab\"/>\n"
        )
      case .outline:
        canvas.add(
          "<rect x=\"\(f(x + 2))\" y=\"\(f(cy - 6))\" width=\"12\" height=\"12\" fill=\"none\" stroke=\"\(item.color)\" stroke-dasharray=\"3 2\"/>\n"
        )
      case .dot:
        canvas.add(
          "<circle cx=\"\(f(x + 8))\" cy=\"\(f(cy))\" r=\"4.5\" fill=\"\(item.color)\"/>\n")
      case .square:
        canvas.add(
          "<rect x=\"\(f(x + 4))\" y=\"\(f(cy - 4))\" width=\"8\" height=\"8\" fill=\"\(item.color)\"/>\n"
        )
      case .ring:
        canvas.add(
          "<circle cx=\"\(f(x + 8))\" cy=\"\(f(cy))\" r=\"6\" fill=\"none\" stroke=\"\(item.color)\" stroke-width=\"2\"/>\n"
        )
      }
      canvas.text(item.name, x: x + 22, y: y, size: 12, kind: .legend)
      // The entry's box covers its swatch too.
      canvas.boxes[canvas.boxes.count - 1].x0 = x
      x += w + 18
    }
    return y + 6
  }

  /// `text` broken at spaces into lines that fit `width` pixels.
  private func wrap(_ text: String, size: Double, width: Double) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      let candidate = line.isEmpty ? String(word) : line + " " + word
      if Canvas.textWidth(candidate, size: size) > width, !line.isEmpty {
        lines.append(line)
        line = String(word)
      } else {
        line = candidate
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}

/// The SVG body being written, and the box of every text in it.
struct Canvas {
  let width: Double
  var body = ""
  var boxes: [TunePlot.TextBox] = []
  var leaders: [TunePlot.Leader] = []

  /// The width of `text` in DejaVu Sans (the font librsvg picks for sans-serif
  /// on Debian), from per-character advance widths; on the generous side.
  static func textWidth(_ text: String, size: Double, bold: Bool = false) -> Double {
    var em = 0.0
    for c in text {
      switch c {
      case "i", "l", "j", "'", "|", ".", ",", ":", ";", "!": em += 0.32
      case "f", "t", "r", "(", ")", "[", "]", " ", "-", "/": em += 0.42
      case "m", "w", "M", "W", "—", "…": em += 0.98
      case "A"..."Z", "≥", "≤", "←", "τ", "°", "·", "–": em += 0.74
      default: em += 0.64
      }
    }
    return em * size * (bold ? 1.15 : 1)
  }

  mutating func add(_ s: String) { body += s }

  /// Text at baseline `y`; records and returns its box.
  @discardableResult
  mutating func text(
    _ s: String, x: Double, y: Double, size: Double, anchor: String = "start",
    weight: String? = nil, fill: String = "#111", kind: TunePlot.TextBox.Kind
  ) -> TunePlot.TextBox {
    let w = Canvas.textWidth(s, size: size, bold: weight != nil)
    let x0 = anchor == "middle" ? x - w / 2 : anchor == "end" ? x - w : x
    let box = TunePlot.TextBox(
      x0: x0, y0: y - size * 0.95, y1: y + size * 0.3, x1: x0 + w, kind: kind, text: s)
    boxes.append(box)
    body +=
      "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(f(size))\"\(anchor == "start" ? "" : " text-anchor=\"\(anchor)\"")\(weight.map { " font-weight=\"\($0)\"" } ?? "") fill=\"\(fill)\">\(escape(s))</text>\n"
    return box
  }

  /// Text turned a quarter left, centred on (x, y).
  mutating func verticalText(_ s: String, x: Double, y: Double, size: Double) {
    let w = Canvas.textWidth(s, size: size)
    boxes.append(
      TunePlot.TextBox(
        x0: x - size * 0.95, y0: y - w / 2, x1: x + size * 0.3, y1: y + w / 2, kind: .label, text: s
      ))
    body +=
      "<text transform=\"translate(\(f(x)) \(f(y))) rotate(-90)\" text-anchor=\"middle\" font-size=\"\(f(size))\" fill=\"#111\">\(escape(s))</text>\n"
  }
}

extension TunePlot.TextBox {
  init(x0: Double, y0: Double, y1: Double, x1: Double, kind: Kind, text: String) {
    self.init(x0: x0, y0: y0, x1: x1, y1: y1, kind: kind, text: text)
  }
}

/// An axis: its range, linear or logarithmic, and ticks at 1-2-5 steps.
struct Axis {
  var low: Double
  var high: Double
  var isLog: Bool
  var ticks: [(value: Double, label: String)]

  func fraction(_ v: Double) -> Double {
    guard high > low else { return 0.5 }
    if isLog {
      let c = max(v, low)
      return (log10(c) - log10(low)) / (log10(high) - log10(low))
    }
    return (v - low) / (high - low)
  }

  /// The 1-2-5 step nearest to `span / target`.
  static func niceStep(_ span: Double, target: Int) -> Double {
    let raw = span / Double(max(target, 1))
    let power = pow(10, (log10(raw)).rounded(.down))
    let m = raw / power
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * power
  }

  /// A linear axis over `low…high` with ticks every 1-2-5 step; with `snap`
  /// the range widens to whole steps.
  static func linear(_ low: Double, _ high: Double, target: Int, snap: Bool = true) -> Axis {
    let step = niceStep(max(high - low, 1e-9), target: target)
    let a = snap ? (low / step + 1e-9).rounded(.down) * step : low
    let b = snap ? (high / step - 1e-9).rounded(.up) * step : high
    var ticks: [(Double, String)] = []
    let decimals = max(0, Int(-log10(step).rounded(.down)))
    var v = (a / step).rounded(.up) * step
    while v <= b + step * 1e-9 {
      ticks.append((v, label(v, decimals: decimals)))
      v += step
    }
    return Axis(low: a, high: b, isLog: false, ticks: ticks)
  }

  /// Logarithmic when the values span more than a factor of 20 (a zero, or a
  /// value under `floor`, sits at the low end, labelled "≤"), else linear from 0.
  static func auto(_ values: [Double], target: Int, floor: Double = 0) -> Axis {
    let values = values.map { $0 < floor ? 0 : $0 }
    let positive = values.filter { $0 > 0 }
    guard let hi = values.max(), hi > 0 else { return linear(0, 1, target: target) }
    guard let lo = positive.min(), hi / lo > 20 else { return linear(0, hi * 1.05, target: target) }
    let steps = [1.0, 2, 5]
    var low = pow(10, log10(lo).rounded(.down))
    for m in steps where m * pow(10, log10(lo).rounded(.down)) <= lo {
      low = m * pow(10, log10(lo).rounded(.down))
    }
    var high = pow(10, log10(hi).rounded(.up))
    for m in steps.reversed() where m * pow(10, log10(hi).rounded(.down)) >= hi {
      high = m * pow(10, log10(hi).rounded(.down))
    }
    var ticks: [(Double, String)] = []
    var e0 = Int(log10(low).rounded(.down))
    var e1 = Int(log10(high).rounded(.up))
    let useAll = e1 - e0 <= 4
    if !useAll {
      // Many decades: ticks at the powers of ten, the range out to whole decades.
      low = pow(10, Double(e0))
      high = pow(10, log10(hi).rounded(.up))
      (e0, e1) = (Int(log10(low).rounded()), Int(log10(high).rounded()))
    }
    for e in e0...e1 {
      for m in useAll ? steps : [1] {
        let v = m * pow(10, Double(e))
        guard v >= low * 0.999, v <= high * 1.001 else { continue }
        let text = label(v, decimals: max(0, -e))
        let zeros = values.contains { $0 <= 0 }
        ticks.append((v, ticks.isEmpty && zeros ? "≤" + text : text))
      }
    }
    return Axis(low: low, high: high, isLog: true, ticks: ticks)
  }

  static func label(_ v: Double, decimals: Int) -> String {
    let text = String(format: "%.\(min(decimals, 6))f", v)
    return Double(text) == 0 ? String(format: "%.\(min(decimals, 6))f", 0.0) : text
  }
}

private func f(_ v: Double) -> String { String(format: "%.1f", v) }

private func escape(_ text: String) -> String {
  text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    .replacingOccurrences(of: ">", with: "&gt;")
}
