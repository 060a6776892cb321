import Foundation
import Testing

@testable import SensorData

/// The CSV row writer: the columns' header, then `%.9g` values the reader reads back.
@Suite struct CSVRowTests {
  @Test func valuesAreWrittenAsPrintfWritesThem() {
    let values = [0.0, 1, -0.5, 1.0 / 3, 9.80665e-7, 123_456_789.123, -2.5e300, .infinity]
    let row = CSVColumns.row(values)
    let expected =
      values.map { String(format: "%.9g", $0) }.joined(separator: ",") + "\n"
    #expect(row == expected)
    #expect(row == "0,1,-0.5,0.333333333,9.80665e-07,123456789,-2.5e+300,inf\n")
  }

  @Test func aWrittenLogReadsBack() throws {
    let path = NSTemporaryDirectory() + "csv-row-\(getpid()).csv"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let text =
      CSVColumns.header(hasGyroscope: true) + CSVColumns.row([0, 0, 0, 1, 0.1, 0.2, 0.3])
      + CSVColumns.row([0.01, 0.5, 0, 0.5, 0, 0, 0])
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let reader = try CSVMotionReader(path: path)
    #expect(reader.hasGyroscope)
    let first = try #require(try reader.nextSample())
    #expect(first.time == 0)
    let second = try #require(try reader.nextSample())
    #expect(second.time == 0.01)
    #expect(try reader.nextSample() == nil)
  }
}
