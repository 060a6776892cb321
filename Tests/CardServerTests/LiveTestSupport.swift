import Attitude
import Foundation

enum LiveTestSupport {
  /// Motion with this tilt (radians) at `time`.
  static func motion(at time: Double, pitch: Double = 0, roll: Double = 0) -> DeviceMotion {
    let attitude = Attitude(pitch: pitch, roll: roll, yaw: 0)
    let down = attitude.quaternion.conjugate.rotate(Vector3(0, 0, -1))
    return DeviceMotion(
      timestamp: time, attitude: attitude, gravity: down, userAcceleration: .zero,
      rotationRate: Vector3(0, 0, 0))
  }
}
