import Testing

@testable import SensorData

/// A compile-time check, not a test: this file builds only while the decoder
/// is `Sendable` (Swift 6), so that it may cross tasks.
private let sendableCompileTimeCheck: [any Sendable.Type] = [SampleDecoder.self]

/// Values cross tasks: a decoder built on one task decodes on another.
@Suite struct SendableTests {
  @Test func aDecoderDecodesInAnotherTask() async throws {
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
}
