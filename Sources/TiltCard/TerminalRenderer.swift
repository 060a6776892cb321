import Foundation

/// Draws a frame as text for a terminal: the card in perspective with half
/// blocks (two pixels a cell, `▀` with foreground above and background below),
/// in 24-bit, 256 or 16 colours or none at all (``ColorMode``), under an
/// optional heading, then pitch and roll and the keys.
///
/// ``render(_:columns:rows:)`` is pure: it returns the escape sequences that
/// home the cursor and redraw the whole screen in place, so it can be tested
/// and a live loop only writes the string.
public struct TerminalRenderer: Sendable {
  /// The colours a terminal can show, chosen once from its environment
  /// (``init(environment:)``) and passed in.
  public enum ColorMode: Hashable, Sendable {
    /// 24-bit colour (`COLORTERM=truecolor` or `24bit`).
    case trueColor
    /// xterm's 256-colour palette (a `TERM` with `256color`).
    case palette256
    /// The 8 ANSI colours every colour terminal has (`TERM=linux`, `vt220`, `xterm`…).
    case palette16
    /// No colour escapes at all (`NO_COLOR`, `TERM=dumb`): the card in block
    /// characters, text as it is.
    case none

    /// The mode for a terminal with this environment: `NO_COLOR` set to
    /// anything (no-color.org) or `TERM` `dumb` or empty gives ``none``;
    /// `COLORTERM` `truecolor` or `24bit` gives ``trueColor``; a `TERM`
    /// ending in `-direct` too; a `TERM` with `256color` gives ``palette256``;
    /// any other `TERM` (`linux`, `xterm`, `screen`, `vt220`) ``palette16``.
    public init(environment: [String: String]) {
      let term = environment["TERM"] ?? ""
      let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
      if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
        self = .none
      } else if term.isEmpty || term == "dumb" {
        self = .none
      } else if colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct") {
        self = .trueColor
      } else if term.contains("256color") {
        self = .palette256
      } else {
        self = .palette16
      }
    }
  }

  public var configuration: CardConfiguration
  public var colorMode: ColorMode
  public var frontTitle: String
  public var backTitle: String
  /// A line above the card saying what is shown (a device, the bundled demo);
  /// `nil` for none.
  public var heading: String?

  public init(
    configuration: CardConfiguration, colorMode: ColorMode = .trueColor,
    frontTitle: String = "FRONT", backTitle: String = "BACK", heading: String? = nil
  ) {
    self.configuration = configuration
    self.colorMode = colorMode
    self.frontTitle = frontTitle
    self.backTitle = backTitle
    self.heading = heading
  }

  /// The colour of a pixel, 0…255 per channel.
  struct RGB: Equatable {
    var r: UInt8, g: UInt8, b: UInt8

    init(_ r: Double, _ g: Double, _ b: Double) {
      func c(_ x: Double) -> UInt8 { UInt8(min(max(x, 0), 255).rounded()) }
      self.r = c(r)
      self.g = c(g)
      self.b = c(b)
    }
  }

  static let frontColor = (r: 92.0, g: 84.0, b: 220.0)
  static let backColor = (r: 24.0, g: 168.0, b: 150.0)
  static let markerColor = (r: 250.0, g: 204.0, b: 21.0)

  /// The screen for `frame` in a terminal of `columns` × `rows` cells.
  public func render(_ frame: CardFrame, columns: Int, rows: Int) -> String {
    let columns = max(columns, 10)
    let rows = max(rows, 4)
    let cardRows = rows - 2 - (heading == nil ? 0 : 1)
    let raster = rasterize(frame, width: columns, height: cardRows * 2)
    var out: [UInt8] = []
    out.reserveCapacity(columns * rows * 24)
    out.append(contentsOf: "\u{1B}[H".utf8)
    if let heading {
      out.append(contentsOf: fit(heading, columns).utf8)
      out.append(contentsOf: "\u{1B}[K\r\n".utf8)
    }
    let overlay = titleOverlay(frame, raster: raster, columns: columns, cardRows: cardRows)
    for row in 0..<cardRows {
      var lastFG: RGB?
      var lastBG: RGB??
      for column in 0..<columns {
        let top = raster.pixels[(2 * row) * columns + column]
        let bottom = raster.pixels[(2 * row + 1) * columns + column]
        if let (char, bg) = overlay[row * columns + column] {
          setColors(fg: RGB(255, 255, 255), bg: bg, lastFG: &lastFG, lastBG: &lastBG, out: &out)
          out.append(contentsOf: String(char).utf8)
          continue
        }
        if colorMode == .none {
          out.append(contentsOf: Self.monochromeBlock(top: top != nil, bottom: bottom != nil).utf8)
          continue
        }
        switch (top, bottom) {
        case (nil, nil):
          if lastBG != .some(nil) {
            out.append(contentsOf: "\u{1B}[49m".utf8)
            lastBG = .some(nil)
          }
          out.append(UInt8(ascii: " "))
        case (let t?, let b):
          setColors(fg: t, bg: b, lastFG: &lastFG, lastBG: &lastBG, out: &out)
          out.append(contentsOf: "▀".utf8)
        case (nil, let b?):
          setColors(fg: b, bg: nil, lastFG: &lastFG, lastBG: &lastBG, out: &out)
          out.append(contentsOf: "▄".utf8)
        }
      }
      if colorMode != .none { out.append(contentsOf: "\u{1B}[0m".utf8) }
      out.append(contentsOf: "\u{1B}[K\r\n".utf8)
    }
    out.append(contentsOf: fit(statusLine(frame), columns).utf8)
    out.append(contentsOf: "\u{1B}[K\r\n".utf8)
    if colorMode != .none { out.append(contentsOf: "\u{1B}[2m".utf8) }
    out.append(contentsOf: fit(TerminalKey.helpLine, columns).utf8)
    if colorMode != .none { out.append(contentsOf: "\u{1B}[0m".utf8) }
    out.append(contentsOf: "\u{1B}[K\u{1B}[J".utf8)
    return String(decoding: out, as: UTF8.self)
  }

  /// A cell of the card without colour: which of its two pixels are on it.
  static func monochromeBlock(top: Bool, bottom: Bool) -> String {
    switch (top, bottom) {
    case (true, true): return "█"
    case (true, false): return "▀"
    case (false, true): return "▄"
    case (false, false): return " "
    }
  }

  /// Pitch and roll of the device (degrees), the card's flip and face, the state.
  public func statusLine(_ frame: CardFrame) -> String {
    let a = frame.motion.attitude
    func deg(_ radians: Double) -> String {
      let d = radians * 180 / .pi
      return (d >= 0 ? "+" : "") + FixedDecimal.string(d, decimals: 1) + "°"
    }
    return "pitch \(deg(a.pitch))  roll \(deg(a.roll))  flip "
      + FixedDecimal.string(frame.flipAngle, decimals: 0) + "°  \(frame.face.rawValue)  "
      + frame.state.rawValue
  }

  private func fit(_ text: String, _ columns: Int) -> String {
    text.count <= columns ? text : String(text.prefix(columns))
  }

  struct Raster {
    var pixels: [RGB?]
    var width: Int
    var height: Int
    /// Pixels per point.
    var scale: Double
    var centreX: Double
    var centreY: Double
  }

  /// The card's pixels: each pixel centre mapped back to face coordinates
  /// through the inverse of the face's homography.
  func rasterize(_ frame: CardFrame, width: Int, height: Int) -> Raster {
    let (w, h) = (configuration.width, configuration.height)
    let scale = min(Double(width) / (w * 1.3), Double(height) / (h * 1.3))
    var raster = Raster(
      pixels: Array(repeating: nil, count: width * height), width: width, height: height,
      scale: scale, centreX: Double(width) / 2, centreY: Double(height) / 2)
    let m = frame.transform
    guard let inverse = Homography(m).inverse else { return raster }
    let base = frame.face == .front ? Self.frontColor : Self.backColor
    let x = frame.extras
    let light = 1 - 0.6 * x.shade
    let radius = 0.08 * min(w, h)
    let sigma = 0.4 * max(w, h)
    for py in 0..<height {
      for px in 0..<width {
        let vx = (Double(px) + 0.5 - raster.centreX) / scale / x.lift
        let vy = (Double(py) + 0.5 - raster.centreY) / scale / x.lift
        guard let (u, v) = inverse.apply(vx, vy), abs(u) <= w / 2, abs(v) <= h / 2 else {
          continue
        }
        let cx = max(abs(u) - (w / 2 - radius), 0)
        let cy = max(abs(v) - (h / 2 - radius), 0)
        guard cx * cx + cy * cy <= radius * radius else { continue }
        let inMarker = u < -w / 2 + 0.2 * w && v < -h / 2 + 0.3 * h
        let c = inMarker ? Self.markerColor : base
        // A diagonal gradient, lighter toward the top-left, then the sheen.
        let gradient = 1.05 - 0.15 * ((u / w + v / h) + 1) / 2
        let dx = vx - x.sheenX
        let dy = vy - x.sheenY
        let sheen = 35 * exp(-(dx * dx + dy * dy) / (2 * sigma * sigma))
        let k = light * gradient
        raster.pixels[py * width + px] = RGB(
          c.r * k + sheen * light, c.g * k + sheen * light, c.b * k + sheen * light)
      }
    }
    return raster
  }

  /// The face's title (and its marker letter) written over the card where
  /// the face is wide enough to carry it, keyed by cell index.
  private func titleOverlay(
    _ frame: CardFrame, raster: Raster, columns: Int, cardRows: Int
  ) -> [Int: (Character, RGB)] {
    var overlay: [Int: (Character, RGB)] = [:]
    let (w, h) = (configuration.width, configuration.height)
    func place(_ text: String, atFace u: Double, _ v: Double, centred: Bool) {
      guard let p = frame.transform.project(x: u, y: v) else { return }
      let px = raster.centreX + p.x * frame.extras.lift * raster.scale
      let py = raster.centreY + p.y * frame.extras.lift * raster.scale
      let row = Int((py / 2).rounded(.down))
      var column = Int(px.rounded(.down)) - (centred ? text.count / 2 : 0)
      guard row >= 0, row < cardRows else { return }
      for ch in text {
        defer { column += 1 }
        guard column >= 0, column < columns else { continue }
        // Only on the card: both pixels of the cell drawn.
        guard let top = raster.pixels[(2 * row) * columns + column],
          raster.pixels[(2 * row + 1) * columns + column] != nil
        else { continue }
        overlay[row * columns + column] = (ch, top)
      }
    }
    // Text only while the face is turned less than ~60° from the viewer.
    guard frame.extras.shade < 0.5 else { return overlay }
    let title = frame.face == .front ? frontTitle : backTitle
    place(title, atFace: 0, 0, centred: true)
    place(
      frame.face == .front ? "F" : "B", atFace: -w / 2 + 0.1 * w, -h / 2 + 0.15 * h, centred: false)
    return overlay
  }

  private func setColors(
    fg: RGB, bg: RGB?, lastFG: inout RGB?, lastBG: inout RGB??, out: inout [UInt8]
  ) {
    guard colorMode != .none else { return }
    if lastFG != fg {
      appendColor(fg, foreground: true, out: &out)
      lastFG = fg
    }
    if lastBG != .some(bg) {
      if let bg {
        appendColor(bg, foreground: false, out: &out)
      } else {
        out.append(contentsOf: "\u{1B}[49m".utf8)
      }
      lastBG = .some(bg)
    }
  }

  private func appendColor(_ c: RGB, foreground: Bool, out: inout [UInt8]) {
    switch colorMode {
    case .trueColor:
      out.append(contentsOf: (foreground ? "\u{1B}[38;" : "\u{1B}[48;").utf8)
      out.append(contentsOf: "2;\(c.r);\(c.g);\(c.b)m".utf8)
    case .palette256:
      func level(_ x: UInt8) -> Int { Int((Double(x) / 255 * 5).rounded()) }
      out.append(contentsOf: (foreground ? "\u{1B}[38;" : "\u{1B}[48;").utf8)
      out.append(contentsOf: "5;\(16 + 36 * level(c.r) + 6 * level(c.g) + level(c.b))m".utf8)
    case .palette16:
      out.append(contentsOf: "\u{1B}[\((foreground ? 30 : 40) + Self.ansiColor(c))m".utf8)
    case .none:
      break
    }
  }

  /// The nearest of the 8 ANSI colours (0 black … 7 white) by hue, so a
  /// shaded card keeps its colour: black only for a pixel close to black,
  /// white or black for a grey.
  static func ansiColor(_ c: RGB) -> Int {
    let (r, g, b) = (Double(c.r), Double(c.g), Double(c.b))
    let high = max(r, g, b)
    let low = min(r, g, b)
    guard high >= 40 else { return 0 }
    guard high - low >= 0.25 * high else { return high >= 128 ? 7 : 0 }
    // Each channel that is at least halfway from the lowest to the highest is on.
    let mid = (high + low) / 2
    return (r >= mid ? 1 : 0) | (g >= mid ? 2 : 0) | (b >= mid ? 4 : 0)
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
