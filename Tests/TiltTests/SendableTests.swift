import Testing
import Tilt

/// The library's values cross tasks (Swift 6): what one task makes, another reads.
@Suite struct SendableTests {
  /// Compiles only while each is Sendable.
  @Test func theValuesAreSendable() {
    #expect(sendable(SourceItem.self) && sendable(DemoMotionSource.self))
    #expect(sendable(DeviceListing.self) && sendable(DeviceListing.Entry.self))
    #expect(sendable(EventLoop.EndHandle.self) && sendable(TiltConfiguration.self))
  }

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

  func sendable<T: Sendable>(_: T.Type) -> Bool { true }
}
