import Testing

@testable import Evdev
@testable import SensorData

/// A compile-time check, not a test: this file builds only while a frame
/// reader over a `Sendable` source is `Sendable` (Swift 6), so that it may cross tasks.
private let sendableCompileTimeCheck: [any Sendable.Type] = [FrameReader<FakeEventSource>.self]

/// Values cross tasks: a frame reader over a Sendable source reads on another task.
@Suite struct SendableTests {
  @Test func aFrameReaderReadsInAnotherTask() async throws {
    let sample = Script.sample(1, 2, 3, at: 1000)
    let reader = FrameReader(
      source: FakeEventSource(sample.asSuccesses + [.outcome(.wouldBlock)]), path: "fake")
    let frames = try await Task.detached {
      var reader = reader
      return try reader.readFrames()
    }.value
    #expect(frames == [Frame(events: sample)])
  }
}
