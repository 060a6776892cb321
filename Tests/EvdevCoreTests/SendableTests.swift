import Testing

@testable import EvdevCore

/// Values cross tasks (Swift 6): a decoder built on one task decodes on another.
@Suite struct SendableTests {
  @Test func aDecoderDecodesInAnotherTask() async throws {
    #expect(isSendable(SampleDecoder.self))  // compiles only while it is Sendable
    let decoder = SampleDecoder(profile: .classify(FakeDevices.dualSense))
    var b = FrameBuilder()
    let frame = b.frame([(EventType.abs, 1, 8192), (EventType.msc, 5, 1000)])
    let sample = await Task.detached {
      var decoder = decoder
      return decoder.decode(frame)
    }.value
    let z = try #require(sample?.acceleration?.z)
    #expect(abs(z - 1) < 1e-9)
  }

  func isSendable<T: Sendable>(_: T.Type) -> Bool { true }
}
