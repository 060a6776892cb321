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
}
