import Attitude
import Foundation
import Testing

@testable import TiltCard

@Suite struct HTMLRendererTests {
  typealias S = TestSupport

  /// A scripted run: tilted, one flip at 0.5 s, settled by about 2 s.
  static func sampleFrames() -> [CardFrame] {
    var session = CardSession(configuration: CardConfiguration())
    var frames: [CardFrame] = []
    for i in 0..<100 {
      let t = Double(i) / 100
      frames += session.receive(S.motion(at: t, pitch: 0.25 * t, roll: -0.3 * t))
    }
    frames += session.perform(.flip, at: 1.0)
    frames += session.finish()
    return frames
  }

  @Test func pageIsSelfContained() {
    let page = HTMLRenderer(configuration: CardConfiguration()).render(Self.sampleFrames())
    #expect(!page.lowercased().contains("http://"))
    #expect(!page.lowercased().contains("https://"))
    #expect(!page.contains("@import"))
    #expect(!page.contains("src="))
    #expect(!page.contains("%%"), "every placeholder filled")
    #expect(page.contains("matrix3d("))
    // One gold chip, on the front; the back has its code instead.
    #expect(page.components(separatedBy: #"<div class="marker"></div>"#).count == 2)
    let back = page.components(separatedBy: #"<div id="back""#).last ?? ""
    #expect(!back.prefix(400).contains("marker") && back.prefix(400).contains(#"class="code""#))
    #expect(page.contains("const LIVE = false;"))
  }

  /// The embedded rows carry each frame's transform exactly as the jsonl does.
  @Test func rowsEmbedTheContractTransform() throws {
    let frames = Self.sampleFrames()
    let page = HTMLRenderer(configuration: CardConfiguration()).render(frames)
    let start = page.range(of: "const F = ")!.upperBound
    let end = page.range(of: ";\nconst W = ")!.lowerBound
    let rows = try JSONSerialization.jsonObject(with: Data(page[start..<end].utf8)) as! [[Double]]
    #expect(rows.count == frames.count)
    for (row, frame) in zip(rows, frames) {
      #expect(row.count == HTMLRenderer.fields.count + 16)
      #expect(abs(row[0] - frame.t) < 1e-6)
      #expect(row[1] == (frame.face == .back ? 1 : 0))
      for i in 0..<16 {
        #expect(abs(row[HTMLRenderer.fields.count + i] - frame.transform.elements[i]) <= 5e-7)
      }
    }
  }

  /// The page's title names the source; so does its heading, escaped for HTML
  /// (a `%%NAME%%` in a file name is not a placeholder).
  @Test func titleNamesTheSourceEscaped() {
    let page = HTMLRenderer(configuration: CardConfiguration(), title: "<x>%%FRAMES%%.evemu · tilt")
      .render([])
    #expect(page.contains("<title>&lt;x&gt;&#37;&#37;FRAMES&#37;&#37;.evemu · tilt</title>"))
    #expect(
      page.contains(#"<div id="source">&lt;x&gt;&#37;&#37;FRAMES&#37;&#37;.evemu · tilt</div>"#))
  }

  /// The four keys, the same on both pages (contract §3.3), and the replay page's
  /// play/pause on a key of its own, not space.
  @Test(arguments: [false, true]) func bothPagesHaveTheSameKeys(live: Bool) {
    let renderer = HTMLRenderer(configuration: CardConfiguration())
    let page = live ? renderer.renderLive() : renderer.render(Self.sampleFrames())
    for (id, key) in [("flip", "space"), ("recenter", "r"), ("pause", "p")] {
      #expect(page.contains(#"<button id="\#(id)" type="button">"#), "\(id) on both pages")
      #expect(page.contains(#"<kbd>\#(key)</kbd></button>"#))
    }
    #expect(page.contains(#"Play<kbd>k</kbd>"#))
    #expect(!page.contains(#"Play<kbd>space</kbd>"#))
  }

  @Test func titlesAreEscaped() {
    let page = HTMLRenderer(
      configuration: CardConfiguration(), title: "a<b>&\"c\"", frontTitle: "<script>"
    ).render([])
    #expect(page.contains("a&lt;b&gt;&amp;&quot;c&quot;"))
    #expect(!page.contains("<script>\n</div>"))
    #expect(page.contains("&lt;script&gt;"))
  }

  /// Writes `.build/tiltcard-sample.html` for `Tests/browser/check-html`
  /// (flip at 1.0 s: the front shows before ~1.2 s, the back after ~1.35 s).
  @Test func writesTheBrowserSample() throws {
    let page = HTMLRenderer(configuration: CardConfiguration()).render(Self.sampleFrames())
    let url = S.packageRoot.appendingPathComponent(".build/tiltcard-sample.html")
    try page.write(to: url, atomically: true, encoding: .utf8)
    #expect(FileManager.default.fileExists(atPath: url.path))
  }
}
