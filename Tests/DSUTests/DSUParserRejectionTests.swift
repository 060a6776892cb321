import Testing

@testable import DSU

@Suite struct DSUParserRejectionTests {
  @Test(arguments: BadDatagramTable.rows)
  func eachRowIsRejectedForItsReason(row: BadDatagramTable.Row) {
    #expect(DSUDatagramParser.parse(row.bytes) == .failure(row.reason))
  }

  @Test func everyPrefixOfAGoodDatagramIsRejectedOrParsed() {
    let good = RequestBytes.portInfo([0, 1, 2, 3])
    for count in 0..<good.count {
      if case .success = DSUDatagramParser.parse(Array(good.prefix(count))) {
        Issue.record("a prefix of \(count) bytes parsed")
      }
    }
  }
}
