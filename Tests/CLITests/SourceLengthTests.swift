import Foundation
import TestTools
import Testing

/// Issue 42's limits, as a test: no Swift file under `Sources` over 600
/// lines and no function over 150 (`scripts/check-lengths`, which says
/// which). Without python3 the test fails: the limits would go unchecked.
@Suite struct SourceLengthTests {
  @Test func noFileOrFunctionOverTheLimits() throws {
    let python = try Tool.python3.require()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["scripts/check-lengths", "Sources"]
    process.currentDirectoryURL = TestTools.packageRoot
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "scripts/check-lengths Sources:\n\(output)")
  }
}
