import Attitude
import EvdevCore
import Foundation
import IIO
import Testing

@testable import Motion

/// The Motion library stands without the card: its targets hold no TiltCard,
/// the async example uses it alone, and a button never restarts its updates.
@Suite struct MotionLayerTests {
  /// `swift package describe --type json` of the package at `path`, in a
  /// scratch directory of its own (the test run holds the package's `.build`).
  static func describe(_ path: String) throws -> [String: Any] {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("tilt-describe-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "swift", "package", "--package-path", path, "--scratch-path", scratch.path, "describe",
      "--type", "json",
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "swift package describe \(path) failed")
    return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
  }

  /// Every target that `name` depends on, directly or through others.
  static func targetGraph(of name: String, in package: [String: Any]) -> Set<String> {
    let targets = package["targets"] as? [[String: Any]] ?? []
    var dependencies: [String: [String]] = [:]
    for target in targets {
      if let name = target["name"] as? String {
        dependencies[name] = target["target_dependencies"] as? [String] ?? []
      }
    }
    var seen: Set<String> = []
    var toVisit = [name]
    while let next = toVisit.popLast() {
      guard seen.insert(next).inserted else { continue }
      toVisit += dependencies[next] ?? []
    }
    return seen
  }

  @Test func theMotionProductLinksNoCard() throws {
    let package = try Self.describe(PipelineTests.path(""))
    let products = package["products"] as? [[String: Any]] ?? []
    let motion = try #require(products.first { $0["name"] as? String == "Motion" })
    #expect(motion["targets"] as? [String] == ["Motion"])
    let graph = Self.targetGraph(of: "Motion", in: package)
    #expect(graph.contains("Evdev") && graph.contains("Attitude"))
    #expect(!graph.contains("TiltCard"), "Motion's targets: \(graph.sorted())")
    #expect(!graph.contains("CardServer") && !graph.contains("Tilt"))
    // The card stands on Motion, not beside it.
    #expect(Self.targetGraph(of: "Tilt", in: package).contains("Motion"))
  }

  /// `Examples/AsyncTilt` depends on the Motion product and imports nothing
  /// else of tilt (CLITests' AsyncTiltExampleTests builds and runs it).
  @Test func theAsyncExampleUsesMotionAlone() throws {
    let example = PipelineTests.path("Examples/AsyncTilt")
    let package = try Self.describe(example)
    let targets = package["targets"] as? [[String: Any]] ?? []
    let app = try #require(targets.first { $0["name"] as? String == "AsyncTilt" })
    #expect(app["product_dependencies"] as? [String] == ["Motion"])
    let main = try String(
      contentsOfFile: example + "/Sources/AsyncTilt/main.swift", encoding: .utf8)
    let imports = main.split(separator: "\n").filter { $0.hasPrefix("import ") }
    #expect(imports == ["import Foundation", "import Motion"])
  }

  /// `import Motion` (or Tilt) gives an app the loop and its clock, not the
  /// system-call layer: the only re-exports on that path are PollLoop, its
  /// clock type, and Motion from Tilt.
  @Test func noReExportOfTheSystemCallLayer() throws {
    var exported: [String] = []
    for target in ["Motion", "PollLoop", "Tilt"] {
      let directory = PipelineTests.path("Sources/" + target)
      for file in try FileManager.default.contentsOfDirectory(atPath: directory)
      where file.hasSuffix(".swift") {
        let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
        exported += text.split(separator: "\n").filter { $0.hasPrefix("@_exported") }
          .map { "\(target): \($0)" }
      }
    }
    #expect(
      exported.sorted() == [
        "Motion: @_exported import PollLoop",
        "PollLoop: @_exported import struct SystemCalls.MonotonicInstant",
        "Tilt: @_exported import Motion",
      ], "\(exported)")
  }

  /// A device that hands out what a test queues, open or not (as a one-node
  /// pad's batch can hold a press read after the stop).
  final class QueuedFeed: MotionDevice {
    var queued: [[SourceItem]] = []
    /// Each change of whether motion is read, from closed.
    private(set) var followed: [Bool] = []
    var hasGyroscope: Bool { false }
    var keyCodes: Set<UInt16>? { nil }
    var accelerometerRange: Double? { nil }
    var gyroscopeRange: Double? { nil }
    var deviceInfo: DeviceInfo? { nil }
    var path: String { "queued" }
    var pollDescriptors: [Int32] { [] }
    var deadline: MonotonicInstant? { nil }
    var readInterval: Double?
    var isGone: Bool { false }
    var waitsForReconnect = false
    var onNote: (MotionNote) -> Void = { _ in }
    func readSteps(ready: Set<Int32>) throws -> [SourceItem]? {
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

  static func level(at t: Double) -> SourceItem {
    SourceItem(
      time: t, motion: MotionSample(time: t, acceleration: Vector3(0, 0, 1), rotationRate: nil),
      pressedButtons: [])
  }

  static func press(at t: Double) -> SourceItem {
    SourceItem(time: t, motion: nil, pressedButtons: [0x130])  // BTN_SOUTH
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
    let tree = try IIOCardTests.Tree()
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
