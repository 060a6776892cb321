import Attitude
import Foundation

/// The picture of a tuning run as one SVG: the reference-relative pitch and
/// roll over time (unfiltered, recommended, reference; rest shaded), beside a
/// zoom on the busiest stretch when the recording is long, then jitter
/// against lag for every setting tried, each point numbered by its rank.
///
/// Drawn with the SVG toolkit beside it: every piece of text goes through
/// `Canvas.text`, which records its box, so a test can check that nothing
/// leaves the canvas and that no two legend entries overlap; `LabelPlacer`
/// puts the rank labels beside their points.
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
      for line in Canvas.wrap(sentence, size: 12, width: TunePlot.width - 2 * margin) {
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
    var labels = LabelPlacer(area: (x0: x0 + 2, y0: y + 2, x1: x1 - 2, y1: bottom - 2))
    let points = scores.map { (px($0.lag ?? 0), py($0.jitter ?? 0)) }
    for (p, s) in zip(points, scores) {
      labels.obstacles.append(
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
    // The rings of the recommended and default points: no label on them if it can be helped.
    for setting in [recommended, defaultSetting] {
      guard let i = scores.firstIndex(where: { $0.setting == setting }) else { continue }
      let p = points[i]
      labels.rings.append(
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
      labels.place(
        name == "recommended" && setting == defaultSetting ? "recommended (default)" : name,
        near: p, size: 12, distances: [22, 40, 60], kind: .callout, fill: color, weight: "bold",
        leader: true, on: &canvas)
    }
    // Points on one spot get their labels as one column, in rank order: the
    // leaders of labels placed one by one ran through the first ones.
    let distances = [7.0, 14, 24, 36, 50, 66, 84, 104]
    for cluster in LabelPlacer.clusters(points, within: 4) {
      if cluster.count > 1,
        labels.placeColumn(
          cluster.map { "\($0 + 1)" }, at: cluster.map { points[$0] }, size: 10,
          distances: distances.dropFirst().map { $0 }, fill: "#222", on: &canvas)
      {
        continue
      }
      for i in cluster {
        labels.place(
          "\(i + 1)", near: points[i], size: 10, distances: distances, kind: .pointLabel,
          fill: "#222", leader: true, on: &canvas)
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
}
