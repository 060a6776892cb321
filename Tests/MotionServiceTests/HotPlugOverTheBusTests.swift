import Foundation
import Motion
import MotionService
import TestTools
import Testing

/// Devices coming and going (contract §8): DeviceAdded and DeviceRemoved on
/// the manager, and a device that comes back at its old path, seen by a
/// client in Python on a private bus while the test drives a hub whose
/// devices it chooses (there is no uinput on a build machine; the VM plugs
/// real ones); and a device that cannot be opened. Serialized: each test
/// points the process's `DBUS_SESSION_BUS_ADDRESS` at its own bus.
@Suite(.serialized) struct HotPlugOverTheBusTests {
  /// The hub's devices, changed by the test between rescans.
  final class Present {
    var devices: [HubDeviceDescription] = []
  }

  static func description(_ name: String) -> HubDeviceDescription {
    HubDeviceDescription(
      path: "/dev/input/\(name)", name: name, identity: "test " + name, kind: .imu,
      hasGyroscope: true)
  }

  @Test(.needs(ServiceClientTests.dbusDaemon, ServiceClientTests.python))
  func addedRemovedAndBackAtItsPath() throws {
    let python = try ServiceClientTests.python.require()
    guard try ServiceClientTests.jeepneyIsThere(python) else { return }
    let bus = try PrivateBus()
    defer { bus.close() }
    bus.becomeTheSessionBus()
    let present = Present()
    let a = Self.description("event7")
    let b = Self.description("event9")
    present.devices = [a]
    let demo = TestTools.packageRoot.appendingPathComponent("recordings/demo.evemu").path
    let hub = DeviceHub(
      supply: HubSupply(
        discover: { HubDiscovery.Found(devices: present.devices, unreadable: []) },
        makeManager: { _ in DeviceMotionManager(.recording(path: demo, speed: 1)) },
        followsHotPlug: false))
    let service = try MotionBusService(hub: hub, version: "test")
    defer { service.stop() }
    service.start()
    let loop = try EventLoop()
    defer { loop.end() }
    func turn(for seconds: Double, until done: () -> Bool) throws {
      let end = Date().addingTimeInterval(seconds)
      while !done() && Date() < end {
        let soon = MonotonicInstant(nanoseconds: MonotonicInstant.now.nanoseconds + 20_000_000)
        try loop.run([service, hub], until: soon)
      }
    }

    let ready = bus.directory.appendingPathComponent("ready").path
    let watcher = Process()
    watcher.executableURL = URL(fileURLWithPath: python)
    watcher.arguments = [
      TestTools.packageRoot.appendingPathComponent("Tests/service-client/watch_devices.py").path,
      bus.address, ready, "3",
    ]
    let output = Pipe()
    watcher.standardOutput = output
    watcher.standardError = output
    try watcher.run()
    try turn(for: 10) { FileManager.default.fileExists(atPath: ready) || !watcher.isRunning }
    present.devices = [a, b]
    hub.rescan()
    present.devices = [b]
    hub.rescan()
    present.devices = [b, a]
    hub.rescan()
    try turn(for: 25) { !watcher.isRunning }
    watcher.waitUntilExit()
    let text = String(
      decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let device = "/org/tilt/Motion1/devices/"
    #expect(
      text == """
        listed \(device)0
        DeviceAdded \(device)1
        DeviceRemoved \(device)0
        DeviceAdded \(device)0
        listed \(device)1 \(device)0

        """)
  }

  static let busctl = Tool("busctl", package: "systemd")

  /// A device that cannot be opened: its Claim is the bus's `Failed` error,
  /// naming the device, and it is not left claimed.
  @Test(.needs(ServiceClientTests.dbusDaemon, busctl))
  func aClaimThatCannotOpenIsAnErrorAndLeavesNoClaim() throws {
    let busctl = try Self.busctl.require()
    let bus = try PrivateBus()
    defer { bus.close() }
    bus.becomeTheSessionBus()
    let device = Self.description("event3")
    let missing = bus.directory.appendingPathComponent("gone.evemu").path
    let hub = DeviceHub(
      supply: HubSupply(
        discover: { HubDiscovery.Found(devices: [device], unreadable: []) },
        makeManager: { _ in DeviceMotionManager(.recording(path: missing, speed: 1)) },
        followsHotPlug: false))
    let service = try MotionBusService(hub: hub, version: "test")
    defer { service.stop() }
    service.start()
    let loop = try EventLoop()
    defer { loop.end() }
    func call(_ arguments: [String]) throws -> (status: Int32, output: String) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: busctl)
      process.arguments = ["--user"] + arguments
      process.environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = output
      try process.run()
      let end = Date().addingTimeInterval(10)
      while process.isRunning && Date() < end {
        let soon = MonotonicInstant(nanoseconds: MonotonicInstant.now.nanoseconds + 20_000_000)
        try loop.run([service, hub], until: soon)
      }
      process.waitUntilExit()
      let text = String(
        decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      return (process.terminationStatus, text)
    }
    let path = "/org/tilt/Motion1/devices/0"
    let claim = try call([
      "call", "org.tilt.Motion1", path, "org.tilt.Motion1.Device", "Claim", "d", "0.1",
    ])
    #expect(claim.status != 0)
    #expect(claim.output.contains("/dev/input/event3 cannot be opened"), "\(claim.output)")
    let claimed = try call([
      "get-property", "org.tilt.Motion1", path, "org.tilt.Motion1.Device", "Claimed",
    ])
    #expect(claimed.output == "b false\n", "\(claimed.output)")
  }

}

/// A dbus-daemon of the test's own, on a socket in a temporary directory.
final class PrivateBus {
  let directory: URL
  let address: String
  private let daemon = Process()
  /// The variable's value before ``becomeTheSessionBus()``; nil: not changed.
  private var previous: String??

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-bus-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let socket = directory.appendingPathComponent("socket").path
    address = "unix:path=" + socket
    let config = directory.appendingPathComponent("bus.conf")
    try """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <listen>\(address)</listen>
      <auth>EXTERNAL</auth>
      <policy context="default">
        <allow send_destination="*" eavesdrop="true"/>
        <allow eavesdrop="true"/>
        <allow own="*"/>
      </policy>
    </busconfig>
    """.write(to: config, atomically: true, encoding: .utf8)
    daemon.executableURL = URL(fileURLWithPath: try ServiceClientTests.dbusDaemon.require())
    daemon.arguments = ["--nofork", "--config-file=\(config.path)"]
    try daemon.run()
    let end = Date().addingTimeInterval(5)
    while !FileManager.default.fileExists(atPath: socket) && Date() < end {
      Thread.sleep(forTimeInterval: 0.01)
    }
  }

  /// Points `DBUS_SESSION_BUS_ADDRESS` (sd-bus's session bus) here until ``close()``.
  func becomeTheSessionBus() {
    previous = .some(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"])
    setenv("DBUS_SESSION_BUS_ADDRESS", address, 1)
  }

  func close() {
    switch previous {
    case .some(.some(let value)): setenv("DBUS_SESSION_BUS_ADDRESS", value, 1)
    case .some(.none): unsetenv("DBUS_SESSION_BUS_ADDRESS")
    case .none: break
    }
    // Killed: a test runner may block SIGTERM, and dbus-daemon keeps that mask.
    kill(daemon.processIdentifier, SIGKILL)
    daemon.waitUntilExit()
    try? FileManager.default.removeItem(at: directory)
  }
}
