import Foundation
import Testing
import TiltCard

@testable import CardServer

/// The live page in a real headless Chromium, fed by the server over
/// `/frames`: it shows the front at one moment and the back after a flip,
/// tilted as the frames say, checked on the screenshots by
/// `Tests/browser/check-shot`.
@Suite(.serialized) struct LivePageBrowserTests {
  static let chromium: String? = {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      for name in ["chromium", "chromium-browser", "google-chrome"] {
        let path = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
      }
    }
    return nil
  }()
  static let python3: String? = {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let path = "\(dir)/python3"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }()
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The visible face's corners (top-left, top-right, bottom-right,
  /// bottom-left) as the frame's transform projects them.
  static func corners(_ frame: CardFrame, _ config: CardConfiguration) -> [Double] {
    let m = frame.transform.elements
    let (w, h) = (config.width / 2, config.height / 2)
    var out: [Double] = []
    for (x, y) in [(-w, -h), (w, -h), (w, h), (-w, h)] {
      let q = m[3] * x + m[7] * y + m[15]
      out += [(m[0] * x + m[4] * y + m[12]) / q, (m[1] * x + m[5] * y + m[13]) / q]
    }
    return out
  }

  /// Runs Chromium on `url` and writes its screenshot to `png` once the page
  /// has painted the frame at time `t` (its `data-drawn`), however long the
  /// machine takes: `Tests/browser/shoot` waits for it, up to 60 s.
  static func shoot(_ url: String, to png: String, drawn t: Double) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: python3!)
    p.arguments = [
      packageRoot.appendingPathComponent("Tests/browser/shoot").path, url, png,
      "--wait", "document.body.dataset.drawn === \"\(String(format: "%.6f", t))\"",
    ]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  static func check(_ png: String, _ face: String, _ corners: [Double]) throws -> (
    Int32, String
  ) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: python3!)
    p.arguments = [
      packageRoot.appendingPathComponent("Tests/browser/check-shot").path, png, face,
      corners.map { String($0) }.joined(separator: ","),
    ]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test(.enabled(if: chromium != nil && python3 != nil, "needs chromium and python3 on PATH"))
  func frontThenBackAfterAFlipTiltedAsTheFramesSay() throws {
    let config = CardConfiguration()
    var session = CardSession(configuration: config)
    var frames: [CardFrame] = []
    for i in 0..<100 {
      let t = Double(i) / 100
      frames += session.receive(LiveTestSupport.motion(at: t, pitch: -0.35 * t, roll: 0.5 * t))
    }
    let front = frames.last!
    frames += session.perform(.flip, at: 1.0)
    for i in 100..<250 {
      let t = Double(i) / 100
      frames += session.receive(LiveTestSupport.motion(at: t, pitch: -0.35, roll: 0.5))
    }
    let back = frames.last!
    #expect(front.face == .front && back.face == .back && back.flipAngle == 180)

    let loop = try TestLoop(page: HTMLRenderer(configuration: config).renderLive())
    defer { loop.stop() }
    nonisolated(unsafe) var current = front
    loop.perform { server in
      // A viewer that comes gets the card as it is now.
      server.onVisibilityChange = { visible in if visible { server.broadcast(current) } }
    }
    let work = FileManager.default.temporaryDirectory
      .appendingPathComponent("tilt-live-\(getpid())")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }
    let url = "http://127.0.0.1:\(loop.port)/"

    for (frame, face) in [(front, "front"), (back, "back")] {
      loop.perform { _ in current = frame }
      let png = work.appendingPathComponent("\(face).png").path
      let shot = try Self.shoot(url, to: png, drawn: frame.t)
      #expect(FileManager.default.fileExists(atPath: png), "Chromium wrote no screenshot: \(shot)")
      let corners = Self.corners(frame, config)
      let (status, output) = try Self.check(png, face, corners)
      #expect(status == 0, "\(output)")
      #expect(output.contains("ok: the \(face) face"), "\(output)")
      // The check can fail: a flat card would differ from these corners.
      let slope = (corners[3] - corners[1]) / (corners[2] - corners[0])
      #expect(abs(slope) > 0.04, "tilted more than twice the tolerance (0.02) of check-shot")
      print(output, terminator: "")
      // The viewer went with the browser.
      #expect(loop.eventually { $0.viewerCount == 0 })
    }
  }
}
