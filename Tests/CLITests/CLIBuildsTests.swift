import Testing

@Suite struct CLIBuildsTests {
  @Test func placeholder() { #expect(Bool(true)) }
}
