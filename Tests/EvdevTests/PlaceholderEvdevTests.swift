import Testing

@testable import Evdev
@testable import EvdevCore

@Suite struct EvdevBuildsTests {
  @Test func moduleLinks() { #expect(Bool(true)) }
}
