import Attitude
import Foundation
import Testing

@testable import TiltCard

/// Streams from the session, checked by `../shared/tools/check-frames`, the
/// contract's own invariant checker.
@Suite struct FrameContractTests {
  typealias S = TestSupport

  /// Runs check-frames on `frames`; nil (with a message) when it can't run.
  func checkFrames(_ frames: [CardFrame], cardSize: String = "340x220") throws -> (
    status: Int32, output: String
  )? {
    guard let python = S.python3() else { return nil }
    let tool = S.packageRoot.appendingPathComponent("../shared/tools/check-frames").standardized
    guard FileManager.default.fileExists(atPath: tool.path) else {
      print("skipped: ../shared/tools/check-frames is absent")
      return nil
    }
    var bytes: [UInt8] = []
    let encoder = JSONLFrameEncoder()
    for f in frames { encoder.encode(f, into: &bytes) }
    return try S.run(python, [tool.path, "-", "--card-size", cardSize], stdin: Data(bytes))
  }

  @Test(arguments: [false, true])
  func scriptedFlipsPassCheckFrames(twoPhase: Bool) throws {
    var config = CardConfiguration()
    config.flipStyle = twoPhase ? .twoPhase : .spring
    var session = CardSession(configuration: config)
    var frames: [CardFrame] = []
    for i in 0..<600 {
      let t = Double(i) / 200
      frames += session.receive(S.motion(at: t, pitch: 0.6 * sin(2 * t), roll: 0.8 * cos(3 * t)))
      if i == 100 || i == 140 || i == 400 { frames += session.perform(.flip, at: t + 0.001) }
    }
    frames += session.finish()
    guard let (status, output) = try checkFrames(frames) else { return }
    #expect(status == 0, "\(output)")
    #expect(output.contains("\(frames.count) frames, all hold"))
  }

  /// The checker does fail on a mirrored face: the test above can fail.
  @Test func checkFramesRejectsAMirroredFace() throws {
    var session = CardSession(configuration: CardConfiguration())
    var frame = session.finish()[0]
    frame.transform[0, 0] = -1
    guard let (status, output) = try checkFrames([frame]) else { return }
    #expect(status == 1)
    #expect(output.contains("mirrored"))
  }

  /// Real motion: the BROAD optical ground truth (trials 02 and 07 windows),
  /// reference-relative, with flips every 1.3 s, card size 300x300 too.
  @Test(arguments: ["broad02_window36-56s_groundtruth.csv", "broad07_window22-42s_groundtruth.csv"])
  func realMotionPassesCheckFrames(file: String) throws {
    guard let url = S.sharedData("broad/" + file) else { return }
    let motions = try Self.groundTruth(url)
    #expect(motions.count > 1000)
    for size in [(340.0, 220.0), (300.0, 300.0)] {
      var config = CardConfiguration()
      config.width = size.0
      config.height = size.1
      var session = CardSession(configuration: config)
      var frames: [CardFrame] = []
      var nextFlip = 0.5
      for m in motions {
        if m.timestamp >= nextFlip {
          frames += session.perform(.flip, at: nextFlip)
          nextFlip += 1.3
        }
        frames += session.receive(m)
      }
      frames += session.finish()
      #expect(frames.contains { $0.face == .back } && frames.contains { $0.face == .front })
      guard
        let (status, output) = try checkFrames(frames, cardSize: "\(Int(size.0))x\(Int(size.1))")
      else { return }
      #expect(status == 0, "\(file): \(output)")
    }
  }

  /// Reads `t_s, opt_qw…qz` (sensor to earth); rows without ground truth are skipped.
  static func groundTruth(_ url: URL) throws -> [DeviceMotion] {
    let text = try String(contentsOf: url, encoding: .utf8)
    var lines = text.split(separator: "\n")
    let header = lines.removeFirst().split(separator: ",").map(String.init)
    func column(_ name: String) throws -> Int {
      guard let i = header.firstIndex(of: name) else {
        throw CocoaError(
          .fileReadCorruptFile,
          userInfo: [NSLocalizedDescriptionKey: "\(url.path): no \(name) column"])
      }
      return i
    }
    let (ti, wi, xi, yi, zi) = try (
      column("t_s"), column("opt_qw"), column("opt_qx"), column("opt_qy"), column("opt_qz")
    )
    var reference: Attitude?
    var out: [DeviceMotion] = []
    for line in lines {
      let f = line.split(separator: ",", omittingEmptySubsequences: false)
      guard let t = Double(f[ti]), let w = Double(f[wi]), let x = Double(f[xi]),
        let y = Double(f[yi]), let z = Double(f[zi]), w.isFinite, x.isFinite
      else { continue }
      let absolute = Attitude(quaternion: Quaternion(w: w, x: x, y: y, z: z).normalized)
      let ref = reference ?? absolute
      reference = ref
      let gravity = absolute.quaternion.conjugate.rotate(Vector3(0, 0, -1))
      out.append(
        DeviceMotion(
          timestamp: t, attitude: absolute.relative(to: ref), gravity: gravity,
          userAcceleration: .zero, rotationRate: nil))
    }
    return out
  }
}
