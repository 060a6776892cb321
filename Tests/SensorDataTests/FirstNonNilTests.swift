import Testing

@testable import SensorData

/// Reading sysfs twice can give two answers: a file read once and gone the
/// next time (a hub unplugged or still being made) must not trap the scan.
@Suite struct FirstNonNilTests {
  @Test func anAnswerThatVanishesOnTheSecondReadIsTakenFromTheFirst() {
    var reads = 0
    // The first read of "b" answers, a second would not.
    let value = ["a", "b", "c"].firstNonNil { name -> String? in
      guard name == "b" else { return nil }
      reads += 1
      return reads == 1 ? "50" : nil
    }
    #expect(value == "50")
    #expect(reads == 1)
  }

  @Test func noAnswerIsNil() {
    #expect([1, 2, 3].firstNonNil { _ -> Int? in nil } == nil)
  }
}
