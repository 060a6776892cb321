import Foundation
import Testing

@testable import Evdev
@testable import SensorData

@Suite struct DiscoveryScanTests {
  @Test(
    arguments: [
      ("event0", 0), ("event10", 10), ("event", nil), ("event1a", nil), ("mouse0", nil),
      ("js0", nil), ("by-id", nil),
    ] as [(String, Int?)])
  func eventNumber(name: String, number: Int?) {
    #expect(DeviceScanner.eventNumber(name) == number)
  }

  @Test func scanListsEventNodesInNumericOrderWithTheirOpenErrors() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("tilt-scan-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for name in ["event10", "event2", "mouse0", "event1", "by-id-not-a-node"] {
      try "x".write(toFile: directory + "/" + name, atomically: false, encoding: .utf8)
    }
    let devices = DeviceScanner.scan(directory: directory)
    #expect(devices.map(\.path) == ["event1", "event2", "event10"].map { directory + "/" + $0 })
    for device in devices {
      #expect(device.info == nil)
      #expect(device.openError == .notAnInputDevice(device.path))
      #expect(device.pairedButtonPath == nil)
    }
  }

  @Test func scanOfAMissingDirectoryIsEmpty() {
    #expect(DeviceScanner.scan(directory: "/nonexistent-tilt-\(UUID().uuidString)").isEmpty)
  }
}
