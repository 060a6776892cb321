import Attitude
import Foundation
import MotionService
import Testing

/// The orientation rule of contract §8, on readings chosen around its 35° edges.
@Suite struct OrientationTrackerTests {
  /// A reading leaning `degrees` from face up toward `axis`'s side.
  static func leaning(_ degrees: Double, toward axis: Vector3) -> Vector3 {
    let angle = degrees * .pi / 180
    return Vector3(0, 0, cos(angle)) + axis * sin(angle)
  }

  @Test(arguments: [
    (Vector3(0, 1, 0), DeviceOrientation.normal), (Vector3(0, -1, 0), .bottomUp),
    (Vector3(-1, 0, 0), .leftUp), (Vector3(1, 0, 0), .rightUp),
  ])
  func anEdgeBeyond35DegreesIsUp(axis: Vector3, expected: DeviceOrientation) {
    var tracker = OrientationTracker()
    #expect(tracker.orientation == .undefined)
    let below = tracker.update(acceleration: Self.leaning(34.9, toward: axis))
    #expect(!below)
    #expect(tracker.orientation == .undefined)
    let beyond = tracker.update(acceleration: Self.leaning(35.1, toward: axis))
    #expect(beyond)
    #expect(tracker.orientation == expected)
    // Back within the edges (face up): the value holds.
    let faceUp = tracker.update(acceleration: Vector3(0, 0, 1))
    #expect(!faceUp)
    #expect(tracker.orientation == expected)
  }

  @Test func xIsJudgedBeforeY() {
    var tracker = OrientationTracker()
    tracker.update(acceleration: Vector3(-0.7, 0.7, 0.1))
    #expect(tracker.orientation == .leftUp)
  }

  @Test func nanKeepsTheValueAndResetUndefines() {
    var tracker = OrientationTracker()
    tracker.update(acceleration: Vector3(0, 1, 0))
    let nan = tracker.update(acceleration: Vector3(.nan, .nan, .nan))
    #expect(!nan)
    #expect(tracker.orientation == .normal)
    tracker.reset()
    #expect(tracker.orientation == .undefined)
  }
}
