import Attitude
import Foundation
import IIO
import Motion
import TestTools
import Testing

/// One manager for every kind of device: the same start, stop, start and
/// unplug give the same lifecycle events and the same updates, whether the
/// device is an IIO sensor (a fake sysfs tree) or a recording. The steps and
/// their events are one fact, `Tests/vm/lifecycle.txt`, which VM scenario 42
/// (`Tests/vm/run 42`) drives through the evdev kind on a real kernel (a
/// uinput accelerometer, which needs `/dev/uinput`) and through the
/// emulated HID sensor hub's IIO driver.
@Suite struct LifecycleTests {
  /// A kind of device under test.
  enum Kind: String, CaseIterable, Sendable {
    case iio = "IIO sensor"
    case recording

    /// The device, its unplug (for a recording: reaching its end), and what
    /// must live as long as it.
    func make() throws -> (device: any MotionDevice, unplug: () throws -> Void, keep: Any) {
      switch self {
      case .iio:
        let tree = try FakeIIOSensor()
        try tree.writeNode(Array(repeating: (0, 0, -1000), count: 300))
        let device = IIOMotionDevice(imu: try tree.imu(), onNote: { _ in })
        let unplug = { try FileManager.default.removeItem(atPath: tree.nodes + "/iio:device0") }
        return (device, unplug, tree)
      case .recording:
        // Three reads of 256 at full speed, then the end.
        let device = try RecordingDevice(Level(left: 600), speed: nil)
        return (device, {}, device)
      }
    }
  }

  /// A manager on a device of one kind, its lifecycle events recorded.
  final class Managed {
    let manager: DeviceMotionManager
    let unplug: () throws -> Void
    private let keep: Any
    var events: [DeviceMotionManager.LifecycleEvent] = []

    init(_ kind: Kind) throws {
      let (device, unplug, keep) = try kind.make()
      (self.unplug, self.keep) = (unplug, keep)
      manager = try DeviceMotionManager(
        device: device, processor: MotionUpdates(configuration: .init(), device: device))
      manager.onLifecycle = { [unowned self] in self.events.append($0) }
    }
  }

  /// Level samples, 100 a second.
  struct Level: MotionSource {
    var left: Int
    var t = 0.0
    var capabilities: MotionCapabilities { MotionCapabilities(hasGyroscope: false) }
    mutating func next() throws -> MotionStep? {
      guard left > 0 else { return nil }
      left -= 1
      defer { t += 0.01 }
      return MotionStep(
        time: t, motion: MotionSample(time: t, acceleration: Vector3(0, 0, -1), rotationRate: nil),
        pressedButtons: [])
    }
  }

  /// A step of the lifecycle and the event it gives.
  struct Step: Equatable {
    var command: String
    var event: String
  }

  /// The steps of `Tests/vm/lifecycle.txt`, shared with VM scenario 42.
  static func steps() throws -> [Step] {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../vm/lifecycle.txt").path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
      let words = $0.split(separator: " ")
      return Step(command: String(words[0]), event: String(words.count > 1 ? words[1] : ""))
    }
  }

  @Test func theStepsAreTheOnesDriven() throws {
    #expect(try Self.steps().map(\.command) == ["start", "stop", "start", "unplug"])
  }

  @Test(arguments: Kind.allCases) func startStopStartUnplug(kind: Kind) throws {
    let steps = try Self.steps()
    let managed = try Managed(kind)
    let manager = managed.manager
    var updates = 0
    func turn() throws { try manager.service(ready: Set(manager.pollDescriptors)) }

    for step in steps {
      let before = updates
      switch step.command {
      case "start":
        try manager.startDeviceMotionUpdates { _ in updates += 1 }
        try turn()
        #expect(updates > before, "no update after a start")
      case "stop":
        try manager.stopDeviceMotionUpdates()
        try turn()
        #expect(updates == before, "an update while stopped")
        #expect(manager.pollDescriptors.isEmpty, "stopped, yet watched: \(manager.pollDescriptors)")
      case "unplug":
        try managed.unplug()
        var ended = false
        for _ in 0..<8 where !ended {
          do {
            try turn()
          } catch let error as MotionError {
            guard case .deviceGone = error else { throw error }
            ended = true
          }
          ended = ended || managed.events.last == .ended
        }
      default:
        Issue.record("unknown step \(step.command)")
      }
    }
    #expect(
      managed.events.map { "\($0)" } == steps.map(\.event), "\(kind.rawValue): \(managed.events)")
  }

  /// The same steps through ``DeviceMotionManager/run(endingOn:)``, the loop
  /// an app runs, done by a participant of that loop (as scenario 42's probe
  /// reads them from stdin): the events up to `ended` are lifecycle.txt's,
  /// and nothing is said after `ended` (closing at the end is no stop).
  @Test(arguments: Kind.allCases) func theStepsThroughRun(kind: Kind) throws {
    let steps = try Self.steps()
    let managed = try Managed(kind)
    let manager = managed.manager
    var updates = 0
    var next = 0
    var updatesBefore = 0
    var turnsAfterSteps = 0
    func step(_: Set<Int32>) throws {
      guard next < steps.count else {
        // The device's end should have ended the loop; never hang on it.
        turnsAfterSteps += 1
        if turnsAfterSteps > 1000 { manager.requestEnd() }
        return
      }
      // A start waits for its first update before the next step.
      if next > 0, steps[next - 1].command == "start", updates == updatesBefore { return }
      updatesBefore = updates
      switch steps[next].command {
      case "start": try manager.startDeviceMotionUpdates { _ in updates += 1 }
      case "stop": try manager.stopDeviceMotionUpdates()
      default: try managed.unplug()
      }
      next += 1
    }
    manager.participants.append(
      ClosureParticipant(descriptors: { [] }, deadline: { .now }, service: step))
    do {
      try manager.run(endingOn: [])
    } catch MotionError.deviceGone {}
    #expect(next == steps.count, "\(kind.rawValue): \(next) of \(steps.count) steps done")
    let names = managed.events.map { "\($0)" }
    let cut = names.firstIndex(of: "ended").map { $0 + 1 } ?? names.count
    #expect(Array(names[..<cut]) == steps.map(\.event), "\(kind.rawValue): \(names)")
    #expect(names[cut...].isEmpty, "\(kind.rawValue): after ended: \(names[cut...])")
  }
}
