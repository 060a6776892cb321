import PollLoop
import SystemCalls
import Testing

@testable import Evdev
@testable import SensorData

/// The rate probe as a participant of an app's loop, beside another
/// participant: it reads its descriptor's frames whenever it is readable,
/// and reports once its time is up.
@Suite struct RateMeasurementTests {
  @Test func measuresOnTheAppsLoopBesideAnotherParticipant() throws {
    // The device: a pipe made readable once for each batch of frames.
    let device = try WakePipe()
    var batches = (0..<5).map { batch in
      (0..<20).map { LiveRateProbeTests.eventFrame(at: 1_000_000 + Int64(batch * 20 + $0) * 4000) }
    }
    var outcome: Result<RateReport, any Error>?
    var decoded = 0
    let measurement = RateMeasurement(
      descriptor: device.fileDescriptor, seconds: 0.3,
      readFrames: {
        device.drain()
        return batches.isEmpty ? [] : batches.removeFirst()
      },
      onFrames: { decoded += $0.count }, completion: { outcome = $0 })
    var served = 0
    let other = ClosureParticipant(
      descriptors: { [] }, deadline: { MonotonicInstant.now + .seconds(0.01) },
      service: { _ in
        served += 1
        if !batches.isEmpty { device.wake() }
      })
    let loop = try EventLoop()
    defer { loop.end() }
    try loop.run([other, measurement], until: .now + .seconds(30), done: { outcome != nil })
    let report = try #require(try outcome?.get())
    #expect(report.sampleCount == 100 && report.medianIntervalMs == 4)
    #expect(decoded == 100)
    #expect(served >= 5, "the other participant was served meanwhile")
    #expect(measurement.isFinished && measurement.pollDescriptors.isEmpty)
    #expect(measurement.deadline == nil)
  }

  /// A read that fails ends the measurement with its error, not the loop.
  @Test func aFailedReadIsTheOutcome() throws {
    let device = try WakePipe()
    device.wake()
    let measurement = RateMeasurement(
      descriptor: device.fileDescriptor, seconds: 10,
      readFrames: { throw DeviceError.vanished("/dev/input/event99") })
    #expect(throws: DeviceError.vanished("/dev/input/event99")) { try measurement.run() }
  }
}
