import Foundation
import Motion
import SystemCalls
import Testing

@testable import DSU

@Suite struct DSUPartsTests {
  @Test func cidrRanges() throws {
    let lan = try #require(CIDRRange("192.168.1.0/24"))
    #expect(lan.contains(SocketAddress(numericHost: "192.168.1.77")!))
    #expect(!lan.contains(SocketAddress(numericHost: "192.168.2.1")!))
    #expect(lan.contains(SocketAddress(numericHost: "::ffff:192.168.1.5")!))
    #expect(!lan.contains(SocketAddress(numericHost: "fd00::1")!))
    #expect(CIDRRange("10.1.2.3/0")!.contains(SocketAddress(numericHost: "8.8.8.8")!))
    #expect(CIDRRange("10.1.2.3")!.contains(SocketAddress(numericHost: "10.1.2.3")!))
    #expect(!CIDRRange("10.1.2.3")!.contains(SocketAddress(numericHost: "10.1.2.4")!))
    #expect(CIDRRange("fd00::/8")!.contains(SocketAddress(numericHost: "fdab::1")!))
    #expect(CIDRRange("10.0.0.0/12")!.contains(SocketAddress(numericHost: "10.15.255.255")!))
    #expect(!CIDRRange("10.0.0.0/12")!.contains(SocketAddress(numericHost: "10.16.0.0")!))
    for bad in ["", "foo", "10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/", "::/129", "1.2.3.4/+8"] {
      #expect(CIDRRange(bad) == nil, "\(bad)")
    }
  }

  @Test func listeningOffLoopbackNeedsRanges() {
    #expect(AllowList.forListening(host: "127.0.0.1", ranges: [])?.allowsEveryone == true)
    #expect(AllowList.forListening(host: "::1", ranges: [])?.allowsEveryone == true)
    #expect(AllowList.forListening(host: "0.0.0.0", ranges: []) == nil)
    #expect(AllowList.forListening(host: "192.168.1.2", ranges: []) == nil)
    let allowed = AllowList.forListening(host: "0.0.0.0", ranges: [CIDRRange("10.0.0.0/8")!])
    #expect(allowed?.allows(SocketAddress(numericHost: "10.1.1.1")!) == true)
    #expect(allowed?.allows(SocketAddress(numericHost: "127.0.0.1")!) == false)
  }

  @Test func aReturningDeviceGetsItsSlotBack() {
    var table = DSUSlotTable()
    #expect(table.assign("pad A") == 0)
    #expect(table.assign("pad B") == 1)
    table.release(0)
    #expect(table.assign("pad C") == 2)  // slot 0 is kept for pad A
    #expect(table.assign("pad A") == 0)
    #expect(table.assign("pad A") == 0)
    #expect(table.assign("pad D") == 3)
    #expect(table.assign("pad E") == nil)
    table.release(1)
    #expect(table.assign("pad E") == 1)  // no slot left that nobody held
  }

  @Test func batteryLevels() {
    #expect(BatteryLevel.level(status: "Charging\n", capacity: 40) == .charging)
    #expect(BatteryLevel.level(status: "Full", capacity: 100) == .charged)
    #expect(BatteryLevel.level(status: "Discharging", capacity: 5) == .dying)
    #expect(BatteryLevel.level(status: "Discharging", capacity: 20) == .low)
    #expect(BatteryLevel.level(status: "Discharging", capacity: 50) == .medium)
    #expect(BatteryLevel.level(status: "Discharging", capacity: 80) == .high)
    #expect(BatteryLevel.level(status: "Discharging", capacity: 95) == .full)
    #expect(BatteryLevel.level(status: nil, capacity: nil) == .notApplicable)
  }

  @Test func batteryFromAPowerSupplyDirectory() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("dsu-battery-\(UUID().uuidString)")
    let supply = directory.appendingPathComponent("ps-controller-battery-a0:5a:5e:01:02:03")
    try FileManager.default.createDirectory(at: supply, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try "Discharging\n".write(
      to: supply.appendingPathComponent("status"), atomically: true, encoding: .utf8)
    try "65\n".write(
      to: supply.appendingPathComponent("capacity"), atomically: true, encoding: .utf8)
    #expect(BatteryLevel.level(powerSupplies: directory.path) == .high)
    #expect(BatteryLevel.level(powerSupplies: directory.path + "/none") == .notApplicable)
  }

  @Test func connectionFromTheBus() {
    #expect(DSUDevice.connection(bus: 0x03) == .usb)
    #expect(DSUDevice.connection(bus: 0x05) == .bluetooth)
    #expect(DSUDevice.connection(bus: 0x18) == .notApplicable)
  }

  @Test func timestampsNeverGoBackAcrossARestart() {
    var clock = DSUTimestamps()
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
        try RecordingSource.open(
          path: ServerHarness.demo, configuration: .init(), checksFirst: false),
        passStart: .oneStepAfterLastSample), speed: nil)
    try device.follow(DeviceUse(motion: true, buttons: true, holds: false))
    var passes: [[SourceItem]] = [[]]
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
