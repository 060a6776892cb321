import Foundation

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

extension TextBox {
  init(x0: Double, y0: Double, y1: Double, x1: Double, kind: Kind, text: String) {
    self.init(x0: x0, y0: y0, x1: x1, y1: y1, kind: kind, text: text)
  }
}

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

/// The SVG body being written, the box of every text in it and every leader line.
struct Canvas {
  let width: Double
  var body = ""
  var boxes: [TextBox] = []
  var leaders: [Leader] = []

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

  /// `text` broken at spaces into lines that fit `width` pixels.
  static func wrap(_ text: String, size: Double, width: Double) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      let candidate = line.isEmpty ? String(word) : line + " " + word
      if textWidth(candidate, size: size) > width, !line.isEmpty {
        lines.append(line)
        line = String(word)
      } else {
        line = candidate
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  mutating func add(_ s: String) { body += s }

  /// Text at baseline `y`; records and returns its box.
  @discardableResult
  mutating func text(
    _ s: String, x: Double, y: Double, size: Double, anchor: String = "start",
    weight: String? = nil, fill: String = "#111", kind: TextBox.Kind
  ) -> TextBox {
    let w = Canvas.textWidth(s, size: size, bold: weight != nil)
    let x0 = anchor == "middle" ? x - w / 2 : anchor == "end" ? x - w : x
    let box = TextBox(
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
      TextBox(
        x0: x - size * 0.95, y0: y - w / 2, x1: x + size * 0.3, y1: y + w / 2, kind: .label, text: s
      ))
    body +=
      "<text transform=\"translate(\(f(x)) \(f(y))) rotate(-90)\" text-anchor=\"middle\" font-size=\"\(f(size))\" fill=\"#111\">\(escape(s))</text>\n"
  }
}

/// A coordinate as the SVG writes it: one decimal.
func f(_ v: Double) -> String { String(format: "%.1f", v) }

private func escape(_ text: String) -> String {
  text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    .replacingOccurrences(of: ">", with: "&gt;")
}
