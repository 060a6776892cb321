// Live tilt from the first motion device (or `LiveTilt /dev/input/eventN`):
// pitch and roll ten times a second, the card's state with each flip.
import Foundation
import Tilt

do {
  let manager = try TiltMotionManager(devicePath: CommandLine.arguments.dropFirst().first)
  manager.deviceMotionUpdateInterval = 0.1  // seconds of sample time
  try manager.startDeviceMotionUpdates { motion in
    let degrees = 180 / Double.pi
    print("pitch \(motion.attitude.pitch * degrees)°, roll \(motion.attitude.roll * degrees)°")
  }
  manager.observeFrames { frame in
    if frame.flipAngle == 0 || frame.flipAngle == 180 { return }
    print("flipping: \(frame.flipAngle)°, \(frame.face) face showing")
  }
  try manager.run()  // until Ctrl-C; sleeps in the kernel while the device is still
} catch {
  FileHandle.standardError.write(Data("LiveTilt: \(error)\n".utf8))
  exit(1)
}
