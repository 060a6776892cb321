import Foundation

/// The picture of a tuning run as one SVG: pitch and roll over time (raw,
/// recommended, reference; rest shaded), then jitter against lag for every
/// setting tried.
struct TunePlot {
  var times: [Double]
  var raw: [Inclination]
  var best: [Inclination]
  var reference: [Inclination?]
  var referenceName: String
  var rest: [Bool]
  var scores: [SettingScore]
  var recommended: SettingScore
  var title: String

  private let width = 960.0
  private let left = 70.0
  private let right = 20.0
  private let panelHeight = 200.0

  func svg() -> String {
    var s = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="800" \
      viewBox="0 0 \(Int(width)) 800" font-family="sans-serif" font-size="12">
      <rect width="100%" height="100%" fill="white"/>
      <text x="\(left)" y="22" font-size="15" font-weight="bold">\(escape(title))</text>
      <text x="\(left)" y="40" fill="#444">recommended: \(escape(recommended.setting.arguments.joined(separator: " "))) · reference: \(escape(referenceName))</text>

      """
    s += timePanel(top: 60, label: "pitch (°)", value: \.pitch)
    s += timePanel(top: 300, label: "roll (°)", value: \.roll)
    s += scatter(top: 560)
    s += "</svg>\n"
    return s
  }

  private func timePanel(top: Double, label: String, value: KeyPath<Inclination, Double>) -> String
  {
    guard let t0 = times.first, let t1 = times.last, t1 > t0 else { return "" }
    let values = raw.map { $0[keyPath: value] } + best.map { $0[keyPath: value] }
    var low = values.min() ?? -1
    var high = values.max() ?? 1
    if high - low < 1 { (low, high) = (low - 0.5, high + 0.5) }
    let plotWidth = width - left - right
    func x(_ t: Double) -> Double { left + (t - t0) / (t1 - t0) * plotWidth }
    func y(_ v: Double) -> Double { top + panelHeight - (v - low) / (high - low) * panelHeight }
    var s = ""
    for run in RestSegments.runs(rest) {
      let a = x(times[run.lowerBound])
      let b = x(times[run.upperBound - 1])
      s +=
        "<rect x=\"\(f(a))\" y=\"\(f(top))\" width=\"\(f(max(b - a, 0.5)))\" height=\"\(f(panelHeight))\" fill=\"#e8eef7\"/>\n"
    }
    s += axes(top: top, xLabel: "time (s)", yLabel: label, xRange: (t0, t1), yRange: (low, high))
    s += polyline(
      times.indices.map { (x(times[$0]), y(raw[$0][keyPath: value])) }, color: "#bbbbbb", width: 1)
    let refPoints = times.indices.compactMap { i in
      reference[i].map { (x(times[i]), y($0[keyPath: value])) }
    }
    s += polyline(refPoints, color: "#2a9d8f", width: 1, dash: true)
    s += polyline(
      times.indices.map { (x(times[$0]), y(best[$0][keyPath: value])) }, color: "#d62828",
      width: 1.5)
    s += legend(
      top: top,
      items: [
        ("raw (no filter)", "#bbbbbb"), ("reference", "#2a9d8f"), ("recommended", "#d62828"),
        ("rest", "#c9d6ea"),
      ])
    return s
  }

  private func scatter(top: Double) -> String {
    let lags = scores.map(\.lag)
    let jitters = scores.map(\.jitter)
    let (lagLow, lagHigh) = (0.0, max(lags.max() ?? 1, 1) * 1.05)
    let (jLow, jHigh) = (0.0, max(jitters.max() ?? 0.01, 0.01) * 1.05)
    let plotWidth = width - left - right
    func x(_ v: Double) -> Double { left + (v - lagLow) / (lagHigh - lagLow) * plotWidth }
    func y(_ v: Double) -> Double { top + panelHeight - (v - jLow) / (jHigh - jLow) * panelHeight }
    var s = axes(
      top: top, xLabel: "lag (ms)", yLabel: "jitter at rest (°)", xRange: (lagLow, lagHigh),
      yRange: (jLow, jHigh))
    for score in scores {
      let isBest = score.setting == recommended.setting
      let color: String
      switch score.setting.filter {
      case .none: color = "#555555"
      case .lowpass: color = "#1d70b8"
      case .oneEuro: color = "#f4a261"
      }
      s +=
        "<circle cx=\"\(f(x(score.lag)))\" cy=\"\(f(y(score.jitter)))\" r=\"\(isBest ? 7 : 4)\" fill=\"\(color)\" stroke=\"\(isBest ? "#d62828" : "white")\" stroke-width=\"\(isBest ? 3 : 1)\"><title>\(escape(score.setting.arguments.joined(separator: " ")))</title></circle>\n"
    }
    s += legend(
      top: top,
      items: [
        ("no filter", "#555555"), ("low-pass", "#1d70b8"), ("One Euro", "#f4a261"),
        ("recommended", "#d62828"),
      ])
    return s
  }

  private func axes(
    top: Double, xLabel: String, yLabel: String, xRange: (Double, Double), yRange: (Double, Double)
  ) -> String {
    let bottom = top + panelHeight
    var s =
      "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(width - left - right))\" height=\"\(f(panelHeight))\" fill=\"none\" stroke=\"#333\"/>\n"
    for k in 0...4 {
      let fx = Double(k) / 4
      let xv = xRange.0 + (xRange.1 - xRange.0) * fx
      let px = left + (width - left - right) * fx
      s +=
        "<text x=\"\(f(px))\" y=\"\(f(bottom + 15))\" text-anchor=\"middle\">\(tick(xv, step: (xRange.1 - xRange.0) / 4))</text>\n"
      let yv = yRange.0 + (yRange.1 - yRange.0) * fx
      let py = bottom - panelHeight * fx
      s +=
        "<text x=\"\(f(left - 6))\" y=\"\(f(py + 4))\" text-anchor=\"end\">\(tick(yv, step: (yRange.1 - yRange.0) / 4))</text>\n"
      s +=
        "<line x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(py))\" y2=\"\(f(py))\" stroke=\"#eee\"/>\n"
    }
    s +=
      "<text x=\"\(f(left + (width - left - right) / 2))\" y=\"\(f(bottom + 32))\" text-anchor=\"middle\">\(escape(xLabel))</text>\n"
    s +=
      "<text transform=\"translate(18 \(f(top + panelHeight / 2))) rotate(-90)\" text-anchor=\"middle\">\(escape(yLabel))</text>\n"
    return s
  }

  private func legend(top: Double, items: [(String, String)]) -> String {
    var s = ""
    var x = width - right - 10
    for (name, color) in items.reversed() {
      x -= Double(name.count) * 7 + 26
      s +=
        "<rect x=\"\(f(x))\" y=\"\(f(top + 8))\" width=\"12\" height=\"12\" fill=\"\(color)\"/><text x=\"\(f(x + 16))\" y=\"\(f(top + 18))\">\(escape(name))</text>\n"
    }
    return s
  }

  /// A line through at most about 2000 of `points`, evenly picked.
  private func polyline(
    _ points: [(Double, Double)], color: String, width: Double, dash: Bool = false
  ) -> String {
    guard points.count > 1 else { return "" }
    let stride = max(1, points.count / 2000)
    let picked = Swift.stride(from: 0, to: points.count, by: stride).map { points[$0] }
    let text = picked.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ")
    return
      "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(width)\"\(dash ? " stroke-dasharray=\"4 3\"" : "") points=\"\(text)\"/>\n"
  }

  private func f(_ v: Double) -> String { String(format: "%.1f", v) }

  /// A tick label with as many decimals as the spacing of the ticks needs.
  private func tick(_ v: Double, step: Double) -> String {
    let decimals = step > 0 ? max(0, min(6, Int((-log10(step)).rounded(.up)) + 1)) : 2
    let text = String(format: "%.\(decimals)f", v)
    return Double(text) == 0 ? String(format: "%.\(decimals)f", 0.0) : text
  }

  private func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}
