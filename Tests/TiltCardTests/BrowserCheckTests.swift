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
}
