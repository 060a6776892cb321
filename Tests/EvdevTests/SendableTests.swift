import Testing

@testable import Evdev
@testable import EvdevCore

/// Values cross tasks (Swift 6): a frame reader over a Sendable source reads on another task.
@Suite struct SendableTests {
  @Test func aFrameReaderReadsInAnotherTask() async throws {
    #expect(isSendable(FrameReader<FakeEventSource>.self))  // compiles only while it is Sendable
    let sample = Script.sample(1, 2, 3, at: 1000)
    let reader = FrameReader(
      source: FakeEventSource(sample.asSuccesses + [.outcome(.wouldBlock)]), path: "fake")
    let frames = try await Task.detached {
      var reader = reader
      return try reader.readFrames()
    }.value
    #expect(frames == [Frame(events: sample)])
  }

  func isSendable<T: Sendable>(_: T.Type) -> Bool { true }
}
