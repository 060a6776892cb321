import SensorData
import Motion
import SystemCalls
import Testing

@testable import DSU

/// Slots and the devices' lifecycle, with devices that come and go as a test
/// says (each plays the demo recording).
@Suite(.serialized) struct DSUSlotsTests {
  /// The devices "plugged in" now, and the managers made for them.
  final class FakeDevices {
    var plugged: [HubDeviceDescription]
    var made: [String: DeviceMotionManager] = [:]

    init(_ identities: [String]) { plugged = identities.map(Self.device) }

    /// A Bluetooth pad (bus 0x05) whose `uniq` is a MAC.
    static func device(_ identity: String) -> HubDeviceDescription {
      let info = DeviceInfo(
        name: "pad \(identity)",
        id: DeviceID(bustype: 0x05, vendor: 0x054C, product: 0x0CE6, version: 1),
        uniq: "a0:5a:5e:00:00:0\(identity.count)")
      return HubDeviceDescription(
        path: "/dev/input/fake-\(identity)", name: "pad \(identity)", identity: identity,
        kind: .imu, hasGyroscope: true, info: info)
    }

    var supply: HubSupply {
      HubSupply(
        discover: { [unowned self] in HubDiscovery.Found(devices: plugged, unreadable: []) },
        makeManager: { [unowned self] device in
          var configuration = DeviceMotionConfiguration()
          configuration.motion.filter = .none
          let manager = DeviceMotionManager(
            .recording(path: ServerHarness.demo, speed: 1), configuration: configuration)
          made[device.identity] = manager
          return manager
        }, followsHotPlug: false)
    }

    func isActive(_ identity: String) -> Bool {
      made[identity]?.isDeviceMotionActive ?? false
    }
  }

  @Test func twoPadsTwoSlotsUnplugDisconnectsReplugGetsTheSameSlot() throws {
    let devices = FakeDevices(["A", "BB"])
    let harness = try ServerHarness(supply: devices.supply)
    #expect(try harness.slotStates() == [2, 2, 0, 0])
    devices.plugged.removeFirst()
    harness.server.hub.rescan()
    #expect(try harness.slotStates() == [0, 2, 0, 0])
    devices.plugged.append(FakeDevices.device("CCC"))
    harness.server.hub.rescan()
    #expect(try harness.slotStates() == [0, 2, 2, 0])  // slot 0 kept for A
    devices.plugged.append(FakeDevices.device("A"))
    harness.server.hub.rescan()
    #expect(try harness.slotStates() == [2, 2, 2, 0])
    #expect(
      harness.server.status.map { "\($0.slot) \($0.device.identity)" } == ["0 A", "1 BB", "2 CCC"])
  }

  @Test func portInfoCarriesModelConnectionAndMAC() throws {
    let devices = FakeDevices(["A"])
    let harness = try ServerHarness(supply: devices.supply)
    let answer = try #require(harness.answers(to: RequestBytes.portInfo([0]), expecting: 1).first)
    #expect(Array(answer[20..<32]) == [0, 2, 2, 2, 0xA0, 0x5A, 0x5E, 0, 0, 1, 0, 0])
  }

  @Test func aSlotSubscriptionOpensThatDeviceOnlyAndItClosesWhenItLapses() throws {
    let devices = FakeDevices(["A", "BB"])
    var limits = DSUService.Limits()
    limits.lapse = 0.3
    let harness = try ServerHarness(supply: devices.supply, limits: limits)
    let packets = try harness.answers(to: RequestBytes.padData(flags: 1, slot: 1), within: 0.2)
    #expect(!packets.isEmpty && packets.allSatisfy { $0[20] == 1 })
    #expect(!devices.isActive("A") && devices.isActive("BB"))
    _ = try harness.collect(for: 0.3)
    #expect(!devices.isActive("BB"))
    #expect(!harness.server.hasOpenDevice)
  }

  @Test func aMACSubscriptionOpensTheDeviceWithThatMAC() throws {
    let devices = FakeDevices(["A", "BB"])
    let harness = try ServerHarness(supply: devices.supply)
    let mac = try #require(DSUDevice(FakeDevices.device("BB")).mac)
    let packets = try harness.answers(
      to: RequestBytes.padData(flags: 2, mac: mac.bytes), within: 0.2)
    #expect(!packets.isEmpty && packets.allSatisfy { $0[20] == 1 })
    #expect(!devices.isActive("A") && devices.isActive("BB"))
  }

  @Test func anOpenDeviceThatIsUnpluggedLeavesItsSlotDisconnected() throws {
    let devices = FakeDevices(["A"])
    let harness = try ServerHarness(supply: devices.supply)
    _ = try harness.answers(to: RequestBytes.padData(), within: 0.1)
    #expect(devices.isActive("A"))
    devices.plugged = []
    harness.server.hub.rescan()
    #expect(!devices.isActive("A"))
    #expect(!harness.server.hasOpenDevice)
    #expect(try harness.slotStates() == [0, 0, 0, 0])
    #expect(try harness.collect(for: 0.1).isEmpty)  // no more pad data
  }

  @Test func aDeviceThatCannotBeOpenedIsSaidOnceAndTriedAgainForANewClient() throws {
    let supply = HubSupply(
      discover: { HubDiscovery.Found(devices: [FakeDevices.device("A")], unreadable: []) },
      makeManager: { _ in DeviceMotionManager(.recording(path: "/nonexistent.evemu", speed: 1)) },
      followsHotPlug: false)
    let harness = try ServerHarness(supply: supply)
    func problems() -> Int {
      harness.events.filter { if case .problem = $0 { true } else { false } }.count
    }
    #expect(try harness.answers(to: RequestBytes.padData(), within: 0.1).isEmpty)
    #expect(problems() == 1)
    #expect(try harness.answers(to: RequestBytes.padData(), within: 0.1).isEmpty)
    #expect(problems() == 1)  // the same client: not tried again
    let other = try UDPSocket(binding: SocketAddress(numericHost: "127.0.0.1", port: 0)!)
    try other.send(RequestBytes.padData(), to: harness.serverAddress)
    _ = try harness.collect(for: 0.1)
    #expect(problems() == 2)
    #expect(!harness.server.hasOpenDevice)
  }
}
