import Attitude
import Foundation

// The made-up tilt and flip that scripts/terminal-raster.swift and
// scripts/terminal-canvas-diff.swift draw (each script's package takes this
// file beside its main.swift): frame k at 60 a second, a flip every 300
// frames (5 s).

/// The device's motion at `t` seconds: a swing in pitch and in roll.
func motion(_ t: Double) -> DeviceMotion {
  let attitude = Attitude(pitch: 0.35 * sin(t * 2), roll: 0.3 * sin(t * 3), yaw: 0)
  let down = attitude.quaternion.conjugate.rotate(Vector3(0, 0, -1))
  return DeviceMotion(
    timestamp: t, attitude: attitude, gravity: down, userAcceleration: .zero,
    rotationRate: Vector3(0, 0, 0))
}

/// The flip's angle at frame `k`: 200 frames at rest, then a turn of 3° a frame up to 180°.
func flip(_ k: Int) -> Double {
  let phase = k % 300
  return phase < 200 ? 0 : min(Double(phase - 200) * 3, 180)
}
