import Testing
import Tilt

/// A compile-time check, not a test: this file builds only while each of the
/// library's values is `Sendable` (Swift 6), so that it may cross tasks.
private let sendableCompileTimeCheck: [any Sendable.Type] = [
  MotionStep.self, DemoMotionSource.self, DeviceListing.self, DeviceListing.Entry.self,
  EventLoop.EndHandle.self, TiltConfiguration.self,
]

/// The library's values cross tasks: what one task makes, another reads.
@Suite struct SendableTests {
  @Test func theDemoPlaysInAnotherTask() async throws {
    let source = try DemoMotionSource(configuration: TiltConfiguration())
    let first = try await Task.detached {
      var source = source
      return try source.next()
    }.value
    #expect(first?.motion != nil)
  }

  @Test func anEndHandleEndsTheLoopFromAnotherTask() async throws {
    let loop = try EventLoop()
    let handle = loop.endHandle
    await Task.detached { handle.requestEnd() }.value
    #expect(try loop.turn().events == [.endRequested])
  }
}
