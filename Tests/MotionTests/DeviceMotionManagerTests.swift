import Attitude
import IIO
import SensorData
import TestTools
import Testing

@testable import Motion

/// What ``DeviceMotionManager`` does with a device: a button never restarts
/// its updates, and stop closes an IIO sensor at once.
@Suite struct DeviceMotionManagerTests {
  /// A device that hands out what a test queues, open or not (as a one-node
  /// pad's batch can hold a press read after the stop).
  final class QueuedFeed: MotionDevice {
    var queued: [[MotionStep]] = []
    /// Each change of whether motion is read, from closed.
    private(set) var followed: [Bool] = []
    var capabilities: MotionCapabilities { MotionCapabilities(hasGyroscope: false) }
    var deviceInfo: DeviceInfo? { nil }
    var path: String { "queued" }
    var pollDescriptors: [Int32] { [] }
    var deadline: MonotonicInstant? { nil }
    var readInterval: Double?
    var isGone: Bool { false }
    var waitsForReconnect = false
    var onNote: (MotionNote) -> Void = { _ in }
    func readSteps(ready: Set<Int32>) throws -> [MotionStep]? {
      queued.isEmpty ? [] : queued.removeFirst()
    }
    func follow(_ use: DeviceUse) throws {
      if use.motion != (followed.last ?? false) { followed.append(use.motion) }
    }
    var isOpen: Bool { followed.last ?? false }
    func finish() {}
    func now() -> Double { 0 }
    func handOutNow() -> Double { 0 }
    func wakeDelay(until t: Double) -> Double? { nil }
    func timeOfWake(_ t: Double) -> Double { t }
  }

  static func level(at t: Double) -> MotionStep {
    MotionStep(
      time: t, motion: MotionSample(time: t, acceleration: Vector3(0, 0, 1), rotationRate: nil),
      pressedButtons: [])
  }

  static func press(at t: Double) -> MotionStep {
    MotionStep(time: t, motion: nil, pressedButtons: [0x130])  // BTN_SOUTH
  }

  /// Stopped means stopped: a press after the stop, in the same batch or in
  /// a later read, starts nothing; only the app's start does.
  @Test func aButtonPressWhileStoppedDoesNotRestartUpdates() throws {
    let feed = QueuedFeed()
    let manager = try DeviceMotionManager(
      device: feed, processor: MotionUpdates(configuration: .init(), device: feed))
    var updates: [Double] = []
    try manager.startDeviceMotionUpdates { motion in
      updates.append(motion.timestamp)
      if motion.timestamp >= 0.02 { try? manager.stopDeviceMotionUpdates() }
    }
    feed.queued = [
      [Self.level(at: 0), Self.level(at: 0.01), Self.level(at: 0.02), Self.press(at: 0.025)]
        + (3..<10).map { Self.level(at: Double($0) / 100) },
      [Self.press(at: 0.1), Self.level(at: 0.11), Self.press(at: 0.12), Self.level(at: 0.13)],
    ]
    try manager.service(ready: [])
    try manager.service(ready: [])
    #expect(updates == [0, 0.01, 0.02])
    #expect(!manager.isDeviceMotionActive)
    #expect(feed.followed == [true, false], "the feed was told to open again: \(feed.followed)")
    // The app's start is what starts it again.
    try manager.startDeviceMotionUpdates { updates.append($0.timestamp) }
    feed.queued = [[Self.level(at: 0.2)]]
    try manager.service(ready: [])
    #expect(updates.last == 0.2)
    #expect(feed.followed == [true, false, true])
  }

  /// Motion alone on an IIO IMU (a fake sysfs tree, a file of scans): start
  /// enables the buffer and reads gravity; stop disables it and closes the
  /// node at once, leaving the loop nothing to wake it.
  @Test func stopClosesAnIIOSensorAtOnce() throws {
    let tree = try FakeIIOSensor()
    try tree.writeNode(Array(repeating: (0, -500, -866), count: 5))
    let device = IIOMotionDevice(imu: try tree.imu(), onNote: { _ in })
    let manager = try DeviceMotionManager(
      device: device, processor: MotionUpdates(configuration: .init(), device: device))
    #expect(!manager.isDeviceOpen && tree.attribute("buffer/enable") == "0")
    try manager.startDeviceMotionUpdates()
    #expect(manager.isDeviceOpen && tree.attribute("buffer/enable") == "1")
    try manager.service(ready: Set(manager.pollDescriptors))
    let gravity = try #require(manager.deviceMotion?.gravity)
    #expect(abs(gravity.y + 0.5) < 1e-3 && abs(gravity.z + 0.866) < 1e-3, "gravity \(gravity)")
    try manager.stopDeviceMotionUpdates()
    #expect(!manager.isDeviceOpen && !manager.isDeviceMotionActive)
    #expect(manager.pollDescriptors.isEmpty && manager.deadline == nil)
    #expect(tree.attribute("buffer/enable") == "0")
  }
}
