import Foundation
import TestTools
import Testing

@testable import TiltCard

/// Runs `Tests/browser/check-html` on a page of scripted frames, in a real
/// headless Chromium (a skip without one, a failure under TILT_REQUIRE_TOOLS=1).
@Suite struct BrowserCheckTests {
  typealias S = TestSupport

  @Test(.needs(.chromium, .python3), arguments: [false, true])
  func frontThenBackUnmirrored(twoPhase: Bool) throws {
    _ = try Tool.chromium.require()
    _ = try S.python3()
    var config = CardConfiguration()
    config.flipStyle = twoPhase ? .twoPhase : .spring
    var session = CardSession(configuration: config)
    var frames: [CardFrame] = []
    for i in 0..<100 {
      let t = Double(i) / 100
      frames += session.receive(S.motion(at: t, pitch: -0.3 * t, roll: 0.4 * t))
    }
    frames += session.perform(.flip, at: 1.0)
    frames += session.finish()
    let page = HTMLRenderer(configuration: config).render(frames)
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("tiltcard-browser-\(twoPhase ? "two-phase" : "spring").html")
    try page.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let script = S.packageRoot.appendingPathComponent("Tests/browser/check-html").path
    let (status, output) = try S.run("/bin/bash", [script, url.path, "0.95", "1.6"])
    #expect(status == 0, "\(output)")
    #expect(output.contains("ok: the front face") && output.contains("ok: the back face"))
  }

  /// The replay page's keys (contract §3.3), pressed in a real Chromium on a page
  /// opened paused at a moment with a tilt: `r` recenters (pitch and roll
  /// read 0.0), space flips (the back shows, though the recording's frame
  /// is the front), `p` stops (the readout says so), `k` plays, `q` quits
  /// (the buttons are disabled).
  @Test(.needs(.chromium, .python3)) func replayPageKeys() throws {
    _ = try Tool.chromium.require()
    let python = try S.python3()
    let config = CardConfiguration()
    var session = CardSession(configuration: config)
    var frames: [CardFrame] = []
    for i in 0..<300 {
      let t = Double(i) / 100
      frames += session.receive(S.motion(at: t, pitch: 0.01 * t, roll: -0.012 * t))
    }
    let page = HTMLRenderer(configuration: config).render(frames)
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("tiltcard-keys-\(getpid()).html")
    try page.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let png = url.deletingPathExtension().appendingPathExtension("png")
    defer { try? FileManager.default.removeItem(at: png) }
    let readout = "document.getElementById('readout').textContent"
    let (status, output) = try S.run(
      python,
      [
        S.packageRoot.appendingPathComponent("Tests/browser/shoot").path,
        url.absoluteString + "#t=1.5", png.path,
        "--wait", "document.body.dataset.face === 'front' && !\(readout).includes(' 0.0°  roll')",
        "--then", "r", "\(readout).includes('pitch    0.0°  roll    0.0°')",
        "--then", "Space", "document.body.dataset.face === 'back'",
        "--then", "p", "\(readout).includes('stopped')",
        "--then", "p", "!\(readout).includes('stopped')",
        "--then", "k", "document.getElementById('play').textContent.startsWith('Play')",
        "--then", "q", "document.getElementById('flip').disabled && document.body.dataset.quit",
      ])
    #expect(status == 0, "\(output)")
  }

  /// At phone width (390 px) the readout (time, pitch, roll) is on screen,
  /// whole, and the page names its source.
  @Test(.needs(.chromium, .python3)) func phoneWidthKeepsTheReadouts() throws {
    _ = try Tool.chromium.require()
    let python = try S.python3()
    let page = HTMLRenderer(configuration: CardConfiguration(), title: "demo.evemu · tilt")
      .render(Self.sampleFramesForPhone())
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("tiltcard-phone-\(getpid()).html")
    try page.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let png = url.deletingPathExtension().appendingPathExtension("png")
    defer { try? FileManager.default.removeItem(at: png) }
    let visible = """
      ['readout', 'source'].every(function (id) { const e = document.getElementById(id); \
      const r = e.getBoundingClientRect(); return r.width > 0 && r.left >= 0 && \
      r.right <= innerWidth && r.bottom <= innerHeight && e.scrollWidth <= e.clientWidth + 1; }) \
      && /[0-9]\\.[0-9]{2} s +pitch +-?[0-9.]+° +roll +-?[0-9.]+°/.test(readout.textContent) \
      && document.title === 'demo.evemu · tilt'
      """
    let (status, output) = try S.run(
      python,
      [
        S.packageRoot.appendingPathComponent("Tests/browser/shoot").path,
        url.absoluteString + "#t=1", png.path, "--size", "390x760", "--timeout", "20",
        "--wait", "document.body.dataset.drawn && " + visible,
      ])
    #expect(status == 0, "\(output)")
  }

  static func sampleFramesForPhone() -> [CardFrame] {
    var session = CardSession(configuration: CardConfiguration())
    var frames: [CardFrame] = []
    for i in 0..<200 {
      let t = Double(i) / 100
      frames += session.receive(S.motion(at: t, pitch: -0.01 * t, roll: 0.012 * t))
    }
    return frames
  }
}
