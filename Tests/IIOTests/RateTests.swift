import Testing

@testable import IIO

@Suite struct RateTests {
  @Test func aSteadyBufferIsItsRate() {
    let rate = IIORate(timestampsNanoseconds: (0..<101).map { Int64($0) * 10_000_000 })
    #expect(rate.scanCount == 101 && rate.rateHz == 100)
    #expect(rate.medianIntervalMs == 10 && rate.intervalStdDevMs == 0 && rate.gapCount == 0)
  }

  /// A lost scan is a gap; a timestamp that goes back is not measured across.
  @Test func gapsAndResets() {
    let ns: [Int64] = [0, 10, 20, 40, 50, 5, 15].map { $0 * 1_000_000 }
    let rate = IIORate(timestampsNanoseconds: ns)
    #expect(rate.gapCount == 1 && rate.timestampResets == 1)
    #expect(rate.medianIntervalMs == 10 && rate.intervalP99Ms == 20)
  }

  @Test func underTwoScansThereIsNoRate() {
    #expect(IIORate(timestampsNanoseconds: [5]).rateHz == nil)
    #expect(IIORate(timestampsNanoseconds: []).scanCount == 0)
  }
}
