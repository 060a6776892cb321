// Live pitch and roll from the first motion device (or `AsyncTilt /dev/input/eventN`),
// ten times a second, until Ctrl-C. Cancelling the task that iterates closes the device.
import Foundation
import Motion

var manager = AsyncMotionManager(.device(path: CommandLine.arguments.dropFirst().first))
manager.deviceMotionUpdateInterval = 0.1  // seconds of sample time
do {
  for try await motion in manager.updates() {
    let (pitch, roll) = (motion.attitude.pitch * 180 / .pi, motion.attitude.roll * 180 / .pi)
    print(String(format: "pitch %6.1f°  roll %6.1f°", pitch, roll))
  }
} catch {
  FileHandle.standardError.write(Data("AsyncTilt: \(error)\n".utf8))
  exit(1)
}
