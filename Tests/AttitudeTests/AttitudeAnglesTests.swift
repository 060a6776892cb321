import Foundation
import Testing

@testable import Attitude

@Suite struct AttitudeAnglesTests {
  @Test(arguments: [(0.3, -0.2, 1.1), (-1.2, 2.5, -3.0), (0.0, 0.0, 0.0)])
  func anglesRoundTrip(pitch: Double, roll: Double, yaw: Double) {
    let a = Attitude(pitch: pitch, roll: roll, yaw: yaw)
    #expect(abs(a.pitch - pitch) < 1e-12)
    #expect(abs(a.roll - roll) < 1e-12)
    #expect(abs(a.yaw - yaw) < 1e-12)
  }

  @Test func upVectorGivesSpecAngles() {
    let a = Attitude(pitch: 0.4, roll: -0.7, yaw: 0.9)
    let up = a.quaternion.conjugate.rotate(Vector3(0, 0, 1))
    #expect(abs(atan2(up.y, (up.x * up.x + up.z * up.z).squareRoot()) - 0.4) < 1e-12)
    #expect(abs(atan2(-up.x, up.z) - -0.7) < 1e-12)
  }
}
