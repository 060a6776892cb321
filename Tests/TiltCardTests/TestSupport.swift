import Attitude
import Foundation
import TestTools

@testable import TiltCard

/// Paths and helpers shared by the TiltCard tests.
enum TestSupport {
  /// The package root, found from this file's path.
  static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `../shared/data/RELATIVE`, for a test with `.needsSharedData(…)`; throws when absent.
  static func sharedData(_ relative: String) throws -> URL {
    try TestTools.requireShared("data/" + relative)
  }

  /// Motion with this tilt (radians) at `time`.
  static func motion(at time: Double, pitch: Double = 0, roll: Double = 0) -> DeviceMotion {
    let attitude = Attitude(pitch: pitch, roll: roll, yaw: 0)
    let down = attitude.quaternion.conjugate.rotate(Vector3(0, 0, -1))
    return DeviceMotion(
      timestamp: time, attitude: attitude, gravity: down, userAcceleration: .zero,
      rotationRate: Vector3(0, 0, 0))
  }

  /// Frame `k` of a tilt that swings the card about and turns it over,
  /// `perSecond` frames a second: a flip in each ten frames.
  static func swingingFrame(_ k: Int, perSecond: Double) -> CardFrame {
    let t = Double(k) / perSecond
    let motion = motion(at: t, pitch: 0.5 * sin(t * 2), roll: 0.45 * sin(t * 3))
    let flip = k % 10 < 6 ? 0 : Double(k % 10 - 5) * 36
    let config = CardConfiguration()
    return CardFrame(
      t: t, motion: motion, pose: CardPose(attitude: motion.attitude, configuration: config),
      flipAngle: flip, flipped: flip > 90, state: .active, configuration: config)
  }

  static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
  static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

  /// The path of python3, for a test with `.needs(.python3)`; throws when missing.
  static func python3() throws -> String { try Tool.python3.require() }

  /// Runs a program, returns its exit status and standard output (empty
  /// without `capture`, for programs that leave a daemon holding the pipe).
  static func run(
    _ executable: String, _ arguments: [String], stdin: Data? = nil, capture: Bool = true
  ) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    if capture {
      process.standardOutput = out
      process.standardError = out
    } else {
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
    }
    let input = Pipe()
    if stdin != nil { process.standardInput = input }
    try process.run()
    if let stdin {
      input.fileHandleForWriting.write(stdin)
      try input.fileHandleForWriting.close()
    }
    let data = capture ? out.fileHandleForReading.readDataToEndOfFile() : Data()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
