import SensorData
import Testing

/// The one rule for the 32-bit `MSC_TIMESTAMP` counter (the decoder's clock
/// and `info`'s rate probe both ask it).
@Suite struct MscTimestampStepTests {
  @Test func forwardWrapAndReset() {
    #expect(MscTimestampStep(from: 1000, to: 5000) == .forward(micros: 4000, wrapped: false))
    #expect(
      MscTimestampStep(from: UInt32.max - 999, to: 3000) == .forward(micros: 4000, wrapped: true))
    #expect(MscTimestampStep(from: 5000, to: 1000) == .reset, "a step back is a restarted counter")
    #expect(MscTimestampStep(from: 0, to: UInt32(1) << 31) == .reset)
    #expect(MscTimestampStep(from: 7, to: 7) == .forward(micros: 0, wrapped: false))
  }
}
