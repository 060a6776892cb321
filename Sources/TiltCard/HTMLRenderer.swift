import Foundation

/// The card's page, self-contained (inline CSS and script, no fonts, images
/// or anything else from the network), in two ways in with one renderer:
///
/// - ``render(_:)``: the replay file of `--format html`, the frames embedded,
///   with play/pause, speed, a scrubber with a mark at each flip, and a
///   readout; opened as `FILE.html#t=S` it shows the frame at S seconds (the
///   last frame at or before S), paused.
/// - ``renderLive()``: the live page of `--serve` (contract §6), fed by the
///   `/frames` event stream, with flip, recenter and stop/start (buttons and
///   the keys space, r, p); it reports the Page Visibility API to
///   `/visibility`.
///
/// Both draw each frame's visible face with that frame's own transform (the
/// very numbers of the jsonl `card.transform`), scaled by `lift`, in
/// continuous (superellipse) corners with a hairline edge, a tight contact
/// shadow and a wide ambient one that slide with the tilt, a sheen that
/// follows the fixed light and the shade edge-on (``CardExtras``). The card
/// scales to the window; `?transparent=1` drops the background and the
/// controls (for OBS); under `prefers-reduced-motion` it neither tilts nor
/// turns. Each face has a gold mark in its top-left corner, so a mirrored
/// face would show.
public struct HTMLRenderer: Sendable {
  public var configuration: CardConfiguration
  public var title: String
  public var frontTitle: String
  public var backTitle: String

  public init(
    configuration: CardConfiguration, title: String = "tilt",
    frontTitle: String = "Membership", backTitle: String = "No. 2026 0042"
  ) {
    self.configuration = configuration
    self.title = title
    self.frontTitle = frontTitle
    self.backTitle = backTitle
  }

  /// The fields of one frame in the page's compact arrays, in order.
  public static let fields = [
    "t", "back", "flipAngle", "rotationX", "rotationY", "shade", "lift", "sheenX", "sheenY",
    "shadowX", "shadowY", "shadowBlur", "stopped", "pitch", "roll", "flipped",
  ]

  /// The replay page for `frames` (in time order), the frames embedded.
  public func render(_ frames: [CardFrame]) -> String {
    var data: [UInt8] = []
    data.reserveCapacity(frames.count * 200)
    data.append(UInt8(ascii: "["))
    for (i, frame) in frames.enumerated() {
      if i > 0 { data.append(contentsOf: ",\n".utf8) }
      appendRow(frame, to: &data)
    }
    data.append(UInt8(ascii: "]"))
    return page(live: false, rows: String(decoding: data, as: UTF8.self))
  }

  /// The live page: frames come from `GET /frames` on the page's own server.
  public func renderLive() -> String {
    page(live: true, rows: "[]")
  }

  private func page(live: Bool, rows: String) -> String {
    let w = configuration.width
    let h = configuration.height
    func px(_ v: Double) -> String { Self.compact(v, decimals: 2) + "px" }
    let shape = Self.continuousCornerPath(width: w, height: h, radius: 0.12 * min(w, h))
    let edge =
      #"<svg class="edge" width="\#(Self.compact(w, decimals: 2))" "#
      + #"height="\#(Self.compact(h, decimals: 2))" aria-hidden="true">"#
      + #"<path d="\#(shape)" fill="none" stroke="rgba(255,255,255,0.34)" "#
      + #"stroke-width="1.5"/></svg>"#
    let fills: [(String, String)] = [
      ("TITLE", Self.escape(title)),
      ("FRONTSUB", "Tilt to move it · space to flip"),
      ("BACKSUB", "Valid to 12/2026"),
      ("FRONT", Self.escape(frontTitle)),
      ("BACK", Self.escape(backTitle)),
      ("WNUM", Self.compact(w, decimals: 2)),
      ("HNUM", Self.compact(h, decimals: 2)),
      ("W", px(w)),
      ("H", px(h)),
      ("SHAPE", shape),
      ("EDGE", edge),
      ("CODE", Self.codeSVG),
      ("SHEENHALF", px(-max(w, h) * 0.8)),
      ("SHEEN", px(max(w, h) * 1.6)),
      ("LIVE", live ? "true" : "false"),
      ("GAIN", Self.compact(configuration.gain, decimals: 6)),
      ("MAXTILT", Self.compact(configuration.maxTilt, decimals: 6)),
      (
        "DIST",
        Self.compact(
          configuration.perspectiveDistance.isFinite ? configuration.perspectiveDistance : 0,
          decimals: 6)
      ),
      ("FLAT", configuration.reduceMotion ? "true" : "false"),
      ("FRAMES", rows),
    ]
    var out = Self.template
    for (name, value) in fills {
      out = out.replacingOccurrences(of: "%%\(name)%%", with: value)
    }
    return out
  }

  /// A rounded rectangle `width`×`height` whose corners are superellipse
  /// arcs (|x|⁵ + |y|⁵ = 1): the curvature grows from zero where the straight
  /// edge ends, with no kink there, like SwiftUI's `.continuous` corners.
  /// `radius` is what a circular corner of about the same look would have.
  /// An SVG / CSS `path()` string in points, origin top-left.
  static func continuousCornerPath(width w: Double, height h: Double, radius r: Double) -> String {
    let extent = min(2.1 * r, min(w, h) / 2)
    let exponent = 2.0 / 5.0
    let steps = 14
    var points: [(Double, Double)] = []
    // Corner centres, clockwise from the top right; each arc turns 90°.
    let corners: [(Double, Double, Double)] = [
      (w - extent, extent, -Double.pi / 2), (w - extent, h - extent, 0),
      (extent, h - extent, Double.pi / 2), (extent, extent, Double.pi),
    ]
    for (cx, cy, from) in corners {
      for i in 0...steps {
        let a = from + Double(i) / Double(steps) * Double.pi / 2
        let c = cos(a)
        let s = sin(a)
        let x = cx + extent * (c < 0 ? -1 : 1) * pow(abs(c), exponent)
        let y = cy + extent * (s < 0 ? -1 : 1) * pow(abs(s), exponent)
        points.append((x, y))
      }
    }
    var path = ""
    for (i, p) in points.enumerated() {
      path += (i == 0 ? "M" : "L") + compact(p.0, decimals: 2) + "," + compact(p.1, decimals: 2)
    }
    return path + "Z"
  }

  /// The back's square code: a fixed pattern of modules with three finder
  /// squares, drawn as one SVG path (no image, nothing to fetch).
  static let codeSVG: String = {
    let n = CardCode.size
    let on = CardCode.modules
    var d = ""
    for y in 0..<n {
      for x in 0..<n where on[y][x] { d += "M\(x),\(y)h1v1h-1z" }
    }
    return #"<svg viewBox="0 0 \#(n) \#(n)" shape-rendering="crispEdges" aria-hidden="true">"#
      + ##"<path fill="#0f3d3a" d="\##(d)"/></svg>"##
  }()

  private func appendRow(_ f: CardFrame, to out: inout [UInt8]) {
    let degrees = 180 / Double.pi
    let x = f.extras
    let values: [(Double, Int)] = [
      (f.t, 6), (f.face == .back ? 1 : 0, 0), (f.flipAngle, 3), (f.pose.rotationX, 3),
      (f.pose.rotationY, 3), (x.shade, 3), (x.lift, 4), (x.sheenX, 1), (x.sheenY, 1),
      (x.shadowX, 1), (x.shadowY, 1), (x.shadowBlur, 1), (f.state == .stopped ? 1 : 0, 0),
      (f.motion.attitude.pitch * degrees, 2), (f.motion.attitude.roll * degrees, 2),
      (f.flipped ? 1 : 0, 0),
    ]
    out.append(UInt8(ascii: "["))
    for (v, d) in values {
      out.append(contentsOf: Self.compact(v, decimals: d).utf8)
      out.append(UInt8(ascii: ","))
    }
    let e = f.transform.elements
    for i in 0..<16 {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      out.append(contentsOf: Self.compact(e[i], decimals: 6).utf8)
    }
    out.append(UInt8(ascii: "]"))
  }

  /// `value` with at most `decimals` places, trailing zeros dropped.
  static func compact(_ value: Double, decimals: Int) -> String {
    var s = FixedDecimal.string(value, decimals: decimals)
    if s.contains(".") {
      while s.hasSuffix("0") { s.removeLast() }
      if s.hasSuffix(".") { s.removeLast() }
    }
    return s
  }

  static func escape(_ text: String) -> String {
    var out = ""
    for ch in text {
      switch ch {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "%": out += "&#37;"
      default: out.append(ch)
      }
    }
    return out
  }
}
