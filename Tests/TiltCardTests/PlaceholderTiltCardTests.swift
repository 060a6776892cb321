import Testing

@testable import TiltCard

@Suite struct TiltCardBuildsTests {
  @Test func moduleLinks() { #expect(Bool(true)) }
}
