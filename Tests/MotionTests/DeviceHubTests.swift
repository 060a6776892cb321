import Foundation
import SensorData
import SystemCalls
import TestTools
import Testing

@testable import Motion

/// The hub: devices found and followed, numbers kept across a replug, one
/// open device and one manager for every claim, the recording's loop, the
/// device clock.
@Suite(.serialized) struct DeviceHubTests {
  static let demo = TestTools.packageRoot.appendingPathComponent("recordings/demo.evemu").path

  /// Devices "plugged in" as the test says, each playing the demo.
  final class Plugged {
    var devices: [HubDeviceDescription]
    var managersMade = 0

    init(_ identities: [String]) { devices = identities.map(Self.device) }

    static func device(_ identity: String) -> HubDeviceDescription {
      HubDeviceDescription(
        path: "/dev/input/fake-\(identity)", name: "pad \(identity)", identity: identity,
        kind: .imu, hasGyroscope: true)
    }

    var supply: HubSupply {
      HubSupply(
        discover: { [unowned self] in HubDiscovery.Found(devices: devices, unreadable: []) },
        makeManager: { [unowned self] _ in
          managersMade += 1
          return DeviceMotionManager(.recording(path: DeviceHubTests.demo, speed: 1))
        }, followsHotPlug: false)
    }
  }

  /// Turns `loop` for `seconds`.
  func turn(_ loop: EventLoop, for seconds: Double) throws {
    let end = MonotonicInstant.now + .milliseconds(Int64(seconds * 1000))
    while MonotonicInstant.now < end { try loop.turn(until: end) }
  }

  @Test func devicesAreAddedInOrderAndAReturningOneGetsItsNumberBack() throws {
    let plugged = Plugged(["A", "B"])
    let hub = DeviceHub(supply: plugged.supply)
    var events: [String] = []
    hub.observe { event in
      switch event {
      case .added(let device): events.append("+\(device.number) \(device.identity)")
      case .removed(let device): events.append("-\(device.number) \(device.identity)")
      default: break
      }
    }
    hub.start()
    plugged.devices.removeFirst()
    hub.rescan()
    plugged.devices.append(Plugged.device("C"))
    hub.rescan()
    plugged.devices.append(Plugged.device("A"))
    hub.rescan()
    #expect(events == ["+0 A", "+1 B", "-0 A", "+2 C", "+0 A"])
    #expect(hub.devices.map(\.number) == [1, 2, 0])
    #expect(hub.device(number: 0)?.identity == "A")
  }

  @Test func twoClaimsOpenTheDeviceOnceAndTheLastReleaseClosesIt() throws {
    let plugged = Plugged(["A"])
    let hub = DeviceHub(supply: plugged.supply)
    hub.start()
    let loop = try EventLoop()
    loop.participants = [hub]
    let device = try #require(hub.devices.first)
    var first: [UInt64] = []
    var second: [UInt64] = []
    let a = try device.claim { first.append($0.timestampMicroseconds) }
    let b = try device.claim { second.append($0.timestampMicroseconds) }
    #expect(device.isOpen && device.claimCount == 2)
    #expect(hub.pollDescriptors.isEmpty)  // a recording has no node: it is due by its clock
    #expect(hub.deadline != nil)
    try turn(loop, for: 0.3)
    #expect(plugged.managersMade == 1)
    #expect(!first.isEmpty && first == second)
    a.release()
    a.release()  // twice: no effect
    #expect(device.isOpen && device.claimCount == 1)
    b.release()
    #expect(!device.isOpen && device.claimCount == 0)
    #expect(hub.deadline == nil)  // no claim: the hub asks for no wake-up
    #expect(device.samplesPerSecond(now: LoopClock.now()) == 0)
  }

  @Test func aDeviceThatGoesAwayEndsItsClaims() throws {
    let plugged = Plugged(["A"])
    let hub = DeviceHub(supply: plugged.supply)
    hub.start()
    let device = try #require(hub.devices.first)
    let claim = try device.claim { _ in }
    plugged.devices = []
    hub.rescan()
    #expect(!device.isPresent && !device.isOpen && !claim.isHeld)
    claim.release()  // after the device went: no effect
    #expect(hub.devices.isEmpty)
  }

  @Test func aClaimThatCannotOpenThrowsAndHoldsNothing() throws {
    let supply = HubSupply(
      discover: { HubDiscovery.Found(devices: [Plugged.device("A")], unreadable: []) },
      makeManager: { _ in DeviceMotionManager(.recording(path: "/nonexistent.evemu", speed: 1)) },
      followsHotPlug: false)
    let hub = DeviceHub(supply: supply)
    hub.start()
    let device = try #require(hub.devices.first)
    #expect(throws: (any Error).self) { try device.claim { _ in } }
    #expect(!device.isOpen && device.claimCount == 0)
  }

  @Test func timestampsNeverGoBackAcrossARestart() {
    var clock = HubTimestamps()
    let first = clock.microseconds(for: 0)
    let second = clock.microseconds(for: 0.004)
    #expect(second - first == 4000)
    clock.restart()
    let third = clock.microseconds(for: 0)
    #expect(third > second)
    #expect(clock.microseconds(for: 0.004) - third == 4000)
  }

  /// DSU's replay (a ``LoopedSource`` one step apart) as its manager plays
  /// it: every pass the first one's steps again, one step after the last
  /// sample, the time going only forward.
  @Test func theRecordingLoopsWithItsClockGoingOn() throws {
    let device = try RecordingDevice(
      LoopedSource(
        try Recording.open(
          path: Self.demo, configuration: .init(), checksFirst: false),
        passStart: .oneStepAfterLastSample), speed: nil)
    try device.follow(DeviceUse(motion: true, buttons: true, holds: false))
    var passes: [[MotionStep]] = [[]]
    while passes.count <= 4 {
      if let items = try device.readSteps(ready: []) {
        passes[passes.count - 1] += items
      } else {
        #expect(try device.nextPass())
        passes.append([])
      }
    }
    passes.removeLast()  // the fifth, just begun
    let times = passes.joined().map(\.time)
    #expect(zip(times.dropFirst(), times).allSatisfy { $0 > $1 })
    #expect(passes[0].count == 3000)
    let first = passes[0]
    let step = first[first.count - 1].time - first[first.count - 2].time
    for pass in passes[1...3] {
      #expect(pass.count == first.count)
      #expect(zip(pass, first).allSatisfy { $0.motion?.acceleration == $1.motion?.acceleration })
    }
    for (before, after) in zip(passes[0...2], passes[1...3]) {
      #expect(abs(after[0].time - before[before.count - 1].time - step) < 1e-9)
    }
    #expect(times.last! > 47)  // the 12 s demo, in its fourth pass
  }
}
