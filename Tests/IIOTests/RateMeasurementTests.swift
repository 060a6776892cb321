import Foundation
import PollLoop
import SensorData
import SystemCalls
import Testing

@testable import IIO

/// The rate measurement as a participant of an app's loop, beside another
/// participant; `measureRate(seconds:)` is the same on a loop of its own.
@Suite struct RateMeasurementTests {
  /// A HID accelerometer whose node holds `count` scans 10 ms apart.
  static func stream(_ fake: FakeSysfs, scans count: Int) throws -> IIOStream {
    try DiscoveryTests.hub(fake)
    let device = try #require(
      IIOScanner.scan(directory: fake.devices, nodeDirectory: fake.nodes).first)
    let bytes = (0..<count).flatMap {
      StreamTests.scan(0, 0, -100, ns: 1_000_000_000 + Int64($0) * 10_000_000)
    }
    try Data(bytes).write(to: URL(fileURLWithPath: device.nodePath))
    return try IIOStream(device: device, kinds: [.accelerometer])
  }

  @Test func measuresOnTheAppsLoopBesideAnotherParticipant() throws {
    let fake = try FakeSysfs()
    let stream = try Self.stream(fake, scans: 101)
    defer { stream.close() }
    var outcome: Result<IIORate, any Error>?
    let measurement = try #require(
      stream.rateMeasurement(seconds: 0.2, completion: { outcome = $0 }))
    var served = 0
    var next = MonotonicInstant.now
    let other = ClosureParticipant(
      descriptors: { [] }, deadline: { next },
      service: { _ in
        served += 1
        next = .now + .seconds(0.01)
      })
    let loop = try EventLoop()
    defer { loop.end() }
    try loop.run([other, measurement], until: .now + .seconds(30), done: { outcome != nil })
    let rate = try #require(try outcome?.get())
    #expect(rate.scanCount == 101 && rate.rateHz == 100)
    #expect(measurement.isFinished && measurement.pollDescriptors.isEmpty)
    #expect(measurement.deadline == nil)
    #expect(served >= 3, "the other participant was served meanwhile")
  }

  @Test func measureRateIsTheSameOnALoopOfItsOwn() throws {
    let fake = try FakeSysfs()
    let stream = try Self.stream(fake, scans: 11)
    defer { stream.close() }
    let rate = try #require(try stream.measureRate(seconds: 0.05))
    #expect(rate.scanCount == 11 && rate.medianIntervalMs == 10)
  }
}
