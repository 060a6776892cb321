import Testing

@testable import DSU

@Suite struct DSUProtocolTests {
  @Test func versionAndPortAreTheProtocols() {
    #expect(DSUProtocol.version == 1001)
    #expect(DSUProtocol.defaultPort == 26760)
    #expect(DSUProtocol.headerSize == 16)
  }
}
