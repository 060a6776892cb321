import Foundation
import Testing

@testable import TiltCard

@Suite struct CardGeometryTests {
  let config = CardConfiguration()

  func view(_ rx: Double, _ ry: Double, _ flip: Double) -> CardGeometry.View {
    CardGeometry.view(
      pose: CardPose(rotationX: rx, rotationY: ry), flipAngle: flip, configuration: config)
  }

  func area(_ v: CardGeometry.View) -> Double {
    CardGeometry.signedArea(of: v.transform, width: config.width, height: config.height)
  }

  @Test func flatCardIsTheFrontFullSize() {
    let v = view(0, 0, 0)
    #expect(v.face == .front)
    var expected = Matrix4.identity
    expected[3, 2] = -1 / 680  // CSS perspective(680): w = 1 − z/680
    #expect(v.transform == expected)
    #expect(abs(area(v) - 340 * 220) < 1e-6)
  }

  @Test func turnedOverShowsTheBackUnmirrored() {
    let v = view(0, 0, 180)
    #expect(v.face == .back)
    #expect(abs(area(v) - 340 * 220) < 1e-6)
    // Pre-turned back: at 180° the back's own x runs left to right again.
    #expect(abs(v.transform[0, 0] - 1) < 1e-12)
  }

  /// Every combination of tilt (to ±maxTilt and beyond the default) and flip
  /// angle: the face drawn has a positive area and the face agrees with the
  /// turned normal.
  @Test(arguments: [-15.0, -7.5, 0, 7.5, 15, 30])
  func invariantOverSweep(tilt: Double) {
    var checked = 0
    for flip in stride(from: -2.0, through: 182, by: 0.5) {
      for (rx, ry) in [(tilt, 0.0), (0, tilt), (tilt, tilt), (-tilt, tilt)] {
        let v = view(rx, ry, flip)
        let a = area(v)
        #expect(a > 0, "rx \(rx) ry \(ry) flip \(flip): area \(a)")
        let front = CardGeometry.frontRotation(
          pose: CardPose(rotationX: rx, rotationY: ry), flipAngle: flip
        ).columns.2.z
        if abs(front) > 1e-3 {
          #expect((front > 0) == (v.face == .front), "rx \(rx) ry \(ry) flip \(flip)")
        }
        checked += 1
      }
    }
    #expect(checked > 1000)
  }

  /// Tilted 20° about y, the faces swap at a flip of 70°, not 90°; tilted the
  /// other way, at 110°.
  @Test(arguments: [(20.0, 70.0), (-20.0, 110.0)])
  func swapPointFollowsTheTilt(ry: Double, swap: Double) {
    #expect(view(0, ry, swap - 0.5).face == .front)
    #expect(view(0, ry, swap + 0.5).face == .back)
    #expect(view(0, ry, 89).face == (ry > 0 ? .back : .front))
    #expect(area(view(0, ry, swap)) > 0)
  }

  @Test func pitchTowardTheViewerEnlargesTheTopEdge() {
    // Positive rotationX brings the top edge toward the viewer (see CardGeometry).
    let v = view(10, 0, 0)
    let top = v.transform.project(x: 170, y: -110)!
    let bottom = v.transform.project(x: 170, y: 110)!
    #expect(abs(top.x) > abs(bottom.x))
  }

  @Test func positiveRotationYMovesTheRightEdgeAway() {
    let v = view(0, 10, 0)
    let right = v.transform.project(x: 170, y: 0)!
    let left = v.transform.project(x: -170, y: 0)!
    #expect(abs(right.x) < abs(left.x))
  }

  @Test func exactlyEdgeOnIsNudgedToAPositiveArea() {
    let v = view(0, 0, 90)
    #expect(area(v) > 0)
    #expect(view(0, 20, 70).face == .back)
  }

  @Test func extrasShadeLiftSheen() {
    let flat = CardExtras(normal: SIMD3(0, 0, 1), flipAngle: 0, width: 340, height: 220)
    #expect(flat.shade == 0)
    #expect(flat.lift == 1)
    #expect(flat.sheenX == 0 && flat.sheenY == 0)
    let mid = view(0, 0, 80)
    let extras = CardExtras(normal: mid.normal, flipAngle: 80, width: 340, height: 220)
    #expect(extras.shade > 0.8)
    #expect(abs(extras.lift - (1 + 0.06 * sin(80 * Double.pi / 180))) < 1e-12)
    // The sheen slides against the tilt: right edge away (normal to the right) → sheen left.
    let tilted = view(0, 10, 0)
    let sheen = CardExtras(normal: tilted.normal, flipAngle: 0, width: 340, height: 220)
    #expect(tilted.normal.x > 0)
    #expect(sheen.sheenX < 0)
  }
}
