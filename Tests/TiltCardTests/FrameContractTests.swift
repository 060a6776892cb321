import Attitude
import Foundation
import TestTools
import Testing

@testable import TiltCard

/// Streams from the session, checked by `../shared/tools/check-frames`, the
/// contract's own invariant checker.
@Suite struct FrameContractTests {
  typealias S = TestSupport

  /// Runs check-frames on `frames`, in a test with `.needs(.python3)` and
  /// `.needsShared("tools/check-frames")`.
  func checkFrames(_ frames: [CardFrame], cardSize: String = "340x220") throws -> (
    status: Int32, output: String
  ) {
    let python = try S.python3()
    let tool = try TestTools.requireShared("tools/check-frames")
    var bytes: [UInt8] = []
    let encoder = JSONLFrameEncoder()
    for f in frames { encoder.encode(f, into: &bytes) }
    return try S.run(python, [tool.path, "-", "--card-size", cardSize], stdin: Data(bytes))
  }

  @Test(.needs(.python3), .needsShared("tools/check-frames"), arguments: [false, true])
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
    let (status, output) = try checkFrames(frames)
    #expect(status == 0, "\(output)")
    #expect(output.contains("\(frames.count) frames, all hold"))
  }

  /// The checker does fail on a mirrored face: the test above can fail.
  @Test(.needs(.python3), .needsShared("tools/check-frames"))
  func checkFramesRejectsAMirroredFace() throws {
    var session = CardSession(configuration: CardConfiguration())
    var frame = session.finish()[0]
    frame.transform[0, 0] = -1
    let (status, output) = try checkFrames([frame])
    #expect(status == 1)
    #expect(output.contains("mirrored"))
  }

  /// Real motion: the BROAD optical ground truth (trials 02 and 07 windows),
  /// reference-relative, with flips every 1.3 s, card size 300x300 too.
  @Test(
    .needs(.python3), .needsShared("tools/check-frames"), .needsSharedData("broad"),
    arguments: ["broad02_window36-56s_groundtruth.csv", "broad07_window22-42s_groundtruth.csv"])
  func realMotionPassesCheckFrames(file: String) throws {
    let url = try S.sharedData("broad/" + file)
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
      let (status, output) = try checkFrames(
        frames, cardSize: "\(Int(size.0))x\(Int(size.1))")
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
