import Testing

@testable import Evdev

@Suite struct EvdevBuildsTests {
  @Test func moduleLinks() { #expect(Bool(true)) }
}
