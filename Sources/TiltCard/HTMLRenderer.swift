/// Writes one self-contained HTML page that plays frames with CSS
/// `matrix3d()`: inline CSS and script, no fonts, images or anything else
/// from the network.
///
/// The page draws each frame's visible face with that frame's own transform
/// (the very numbers of the jsonl `card.transform`), scaled by `lift`, with
/// the shade, sheen and shadow cues. Each face carries a title and a marker
/// letter ("F" or "B") in its top-left corner, so a mirrored face would show.
/// It has play/pause, a scrubber and a time readout; opened as
/// `FILE.html#t=S` it shows the frame at S seconds (the last frame at or
/// before S), paused.
public struct HTMLRenderer: Sendable {
  public var configuration: CardConfiguration
  public var title: String
  public var frontTitle: String
  public var backTitle: String

  public init(
    configuration: CardConfiguration, title: String = "tilt",
    frontTitle: String = "Front", backTitle: String = "Back"
  ) {
    self.configuration = configuration
    self.title = title
    self.frontTitle = frontTitle
    self.backTitle = backTitle
  }

  /// The fields of one frame in the page's compact arrays, in order.
  public static let fields = [
    "t", "back", "flipAngle", "rotationX", "rotationY", "shade", "lift", "sheenX", "sheenY",
    "shadowX", "shadowY", "shadowBlur", "stopped", "pitch", "roll",
  ]

  /// The page for `frames` (in time order).
  public func render(_ frames: [CardFrame]) -> String {
    var data: [UInt8] = []
    data.reserveCapacity(frames.count * 200)
    data.append(UInt8(ascii: "["))
    for (i, frame) in frames.enumerated() {
      if i > 0 { data.append(contentsOf: ",\n".utf8) }
      appendRow(frame, to: &data)
    }
    data.append(UInt8(ascii: "]"))
    let w = configuration.width
    let h = configuration.height
    func px(_ v: Double) -> String { Self.compact(v, decimals: 2) + "px" }
    let marker = min(w, h) * 0.28
    return Self.template
      .replacingOccurrences(of: "@TITLE@", with: Self.escape(title))
      .replacingOccurrences(of: "@FRONT@", with: Self.escape(frontTitle))
      .replacingOccurrences(of: "@BACK@", with: Self.escape(backTitle))
      .replacingOccurrences(of: "@W@", with: px(w))
      .replacingOccurrences(of: "@H@", with: px(h))
      .replacingOccurrences(of: "@HALFW@", with: px(-w / 2))
      .replacingOccurrences(of: "@HALFH@", with: px(-h / 2))
      .replacingOccurrences(of: "@RADIUS@", with: px(0.08 * min(w, h)))
      .replacingOccurrences(of: "@MARKER@", with: px(marker))
      .replacingOccurrences(of: "@MARKERFONT@", with: px(marker * 0.8))
      .replacingOccurrences(of: "@INSET@", with: px(min(w, h) * 0.07))
      .replacingOccurrences(of: "@SHEEN@", with: px(max(w, h) * 1.6))
      .replacingOccurrences(of: "@SHEENHALF@", with: px(-max(w, h) * 0.8))
      .replacingOccurrences(of: "@TITLEFONT@", with: px(min(w, h) * 0.16))
      .replacingOccurrences(of: "@FRAMES@", with: String(decoding: data, as: UTF8.self))
  }

  private func appendRow(_ f: CardFrame, to out: inout [UInt8]) {
    let degrees = 180 / Double.pi
    let x = f.extras
    let values: [(Double, Int)] = [
      (f.t, 6), (f.face == .back ? 1 : 0, 0), (f.flipAngle, 3), (f.pose.rotationX, 3),
      (f.pose.rotationY, 3), (x.shade, 3), (x.lift, 4), (x.sheenX, 1), (x.sheenY, 1),
      (x.shadowX, 1), (x.shadowY, 1), (x.shadowBlur, 1), (f.state == .stopped ? 1 : 0, 0),
      (f.motion.attitude.pitch * degrees, 2), (f.motion.attitude.roll * degrees, 2),
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
      default: out.append(ch)
      }
    }
    return out
  }

  static let template = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>@TITLE@</title>
    <style>
    html, body { margin: 0; height: 100%; background: #1d1f27; color: #e8e8ee;
      font: 14px/1.4 sans-serif; }
    #stage { position: relative; height: calc(100% - 56px); min-height: 320px; overflow: hidden; }
    .face { position: absolute; left: 50%; top: 50%; width: @W@; height: @H@;
      margin-left: @HALFW@; margin-top: @HALFH@; border-radius: @RADIUS@; overflow: hidden;
      display: none; }
    #front { background: linear-gradient(135deg, #4f46e5, #7c3aed); }
    #back { background: linear-gradient(135deg, #0d9488, #10b981); }
    .marker { position: absolute; left: @INSET@; top: @INSET@; width: @MARKER@; height: @MARKER@;
      border-radius: 12%; background: #facc15; color: #1d1f27; text-align: center;
      font: bold @MARKERFONT@/@MARKER@ sans-serif; }
    .title { position: absolute; left: 0; right: 0; top: 50%; margin-top: -0.6em;
      text-align: center; color: #fff; font: bold @TITLEFONT@/1.2 sans-serif; }
    .sheen { position: absolute; left: 50%; top: 50%; width: @SHEEN@; height: @SHEEN@;
      margin-left: @SHEENHALF@; margin-top: @SHEENHALF@; pointer-events: none;
      background: radial-gradient(circle, rgba(255,255,255,0.22), rgba(255,255,255,0) 45%); }
    .shade { position: absolute; left: 0; top: 0; right: 0; bottom: 0; background: #000;
      opacity: 0; }
    #controls { height: 56px; display: flex; align-items: center; gap: 12px; padding: 0 16px;
      box-sizing: border-box; }
    #scrub { flex: 1; }
    #readout { font-family: monospace; white-space: pre; }
    </style>
    </head>
    <body>
    <div id="stage">
      <div id="front" class="face"><div class="sheen"></div><div class="marker">F</div>
        <div class="title">@FRONT@</div><div class="shade"></div></div>
      <div id="back" class="face"><div class="sheen"></div><div class="marker">B</div>
        <div class="title">@BACK@</div><div class="shade"></div></div>
    </div>
    <div id="controls">
      <button id="play" type="button">Play</button>
      <input id="scrub" type="range" min="0" max="0" step="0.001" value="0">
      <span id="readout"></span>
    </div>
    <script>
    "use strict";
    // One row a frame: t, back, flipAngle, rotationX, rotationY, shade, lift,
    // sheenX, sheenY, shadowX, shadowY, shadowBlur, stopped, pitch, roll, then
    // the 16 numbers of card.transform (column-major, as matrix3d takes them).
    const F = @FRAMES@;
    const faces = [document.getElementById("front"), document.getElementById("back")];
    const play = document.getElementById("play");
    const scrub = document.getElementById("scrub");
    const readout = document.getElementById("readout");
    const start = F.length ? F[0][0] : 0;
    const end = F.length ? F[F.length - 1][0] : 0;
    scrub.min = start;
    scrub.max = end;
    let playing = false, clockStart = 0, timeStart = 0, current = start;

    function indexAt(t) {
      let lo = 0, hi = F.length - 1;
      if (hi < 0 || t < F[0][0]) return 0;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (F[mid][0] <= t) lo = mid; else hi = mid - 1;
      }
      return lo;
    }

    function show(t) {
      current = Math.min(Math.max(t, start), end);
      scrub.value = current;
      if (!F.length) { readout.textContent = "no frames"; return; }
      const f = F[indexAt(current)];
      const face = faces[f[1]], other = faces[1 - f[1]];
      other.style.display = "none";
      face.style.display = "block";
      face.style.transform = "scale(" + f[6] + ") matrix3d(" + f.slice(15, 31).join(",") + ")";
      face.style.boxShadow = f[9] + "px " + f[10] + "px " + f[11] + "px rgba(0,0,0,0.45)";
      face.querySelector(".shade").style.opacity = (0.6 * f[5]).toFixed(3);
      face.querySelector(".sheen").style.transform =
        "translate(" + f[7] + "px," + f[8] + "px)";
      readout.textContent = "t " + current.toFixed(3) + " s  " + (f[1] ? "back " : "front") +
        "  flip " + f[2].toFixed(1) + "°  pitch " + f[13].toFixed(1) + "°  roll " +
        f[14].toFixed(1) + "°" + (f[12] ? "  stopped" : "");
    }

    function tick(now) {
      if (!playing) return;
      const t = timeStart + (now - clockStart) / 1000;
      show(t);
      if (t >= end) { setPlaying(false); return; }
      requestAnimationFrame(tick);
    }

    function setPlaying(on) {
      playing = on;
      play.textContent = on ? "Pause" : "Play";
      if (on) {
        if (current >= end) current = start;
        timeStart = current;
        clockStart = performance.now();
        requestAnimationFrame(tick);
      }
    }

    function fromHash() {
      const m = /(?:^#|&)t=([0-9.eE+-]+)/.exec(location.hash);
      if (m) { setPlaying(false); show(parseFloat(m[1])); return true; }
      return false;
    }

    play.addEventListener("click", function () { setPlaying(!playing); });
    scrub.addEventListener("input", function () { setPlaying(false); show(parseFloat(scrub.value)); });
    window.addEventListener("hashchange", fromHash);
    if (!fromHash()) { show(start); setPlaying(true); }
    </script>
    </body>
    </html>

    """#
}
