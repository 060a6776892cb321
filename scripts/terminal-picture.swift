import Attitude
import Foundation
import NewCard
import OldCard

// The picture comparison's frames (scripts/compare-terminal builds this with
// two TiltCards: OldCard, an earlier commit's, and NewCard, the checkout's).
// Writes, for frames of a made-up motion (a tilt and a flip), at each size
// and depth, into the folder given: old-TAG, the old renderer's whole screen
// of frame k; full-TAG, the new renderer's; new-TAG, the new screen's
// updates for frames 0...k one after another (TAG: COLSxROWS-DEPTH-k).
let out = CommandLine.arguments[1]
func motion(_ t: Double, _ pitch: Double, _ roll: Double) -> DeviceMotion {
  let attitude = Attitude(pitch: pitch, roll: roll, yaw: 0)
  let down = attitude.quaternion.conjugate.rotate(Vector3(0, 0, -1))
  return DeviceMotion(
    timestamp: t, attitude: attitude, gravity: down, userAcceleration: .zero,
    rotationRate: Vector3(0, 0, 0))
}
let checkpoints: Set<Int> = [0, 15, 30, 45, 59]
for (columns, rows) in [(120, 40), (80, 24), (40, 12)] {
  for depth in ["24", "256", "16"] {
    let oldMode: OldCard.TerminalRenderer.ColorMode =
      depth == "24" ? .trueColor : depth == "256" ? .palette256 : .palette16
    let newMode: NewCard.TerminalRenderer.ColorMode =
      depth == "24" ? .trueColor : depth == "256" ? .palette256 : .palette16
    let oldR = OldCard.TerminalRenderer(
      configuration: OldCard.CardConfiguration(), colorMode: oldMode,
      heading: "recordings/demo.evemu", showsTime: true, duration: 12)
    let newR = NewCard.TerminalRenderer(
      configuration: NewCard.CardConfiguration(), colorMode: newMode,
      heading: "recordings/demo.evemu", showsTime: true, duration: 12)
    var screen = NewCard.TerminalScreen()
    var stream: [UInt8] = []
    for k in 0..<60 {
      let t = Double(k) / 20
      let (p, r) = (0.35 * sin(t * 2), 0.3 * sin(t * 3))
      let flip = k < 20 ? 0 : min(Double(k - 20) * 9, 180)
      let m = motion(t, p, r)
      let oldF = OldCard.CardFrame(
        t: t, motion: m,
        pose: OldCard.CardPose(attitude: m.attitude, configuration: OldCard.CardConfiguration()),
        flipAngle: flip, flipped: flip > 90, state: .active,
        configuration: OldCard.CardConfiguration())
      let newF = NewCard.CardFrame(
        t: t, motion: m,
        pose: NewCard.CardPose(attitude: m.attitude, configuration: NewCard.CardConfiguration()),
        flipAngle: flip, flipped: flip > 90, state: .active,
        configuration: NewCard.CardConfiguration())
      stream += screen.update(newF, renderer: newR, columns: columns, rows: rows)
      if checkpoints.contains(k) {
        let tag = "\(columns)x\(rows)-\(depth)-\(k)"
        try! oldR.render(oldF, columns: columns, rows: rows)
          .write(toFile: "\(out)/old-\(tag)", atomically: true, encoding: .utf8)
        try! Data(stream).write(to: URL(fileURLWithPath: "\(out)/new-\(tag)"))
        try! newR.render(newF, columns: columns, rows: rows)
          .write(toFile: "\(out)/full-\(tag)", atomically: true, encoding: .utf8)
      }
    }
  }
}
