import Foundation
import TestTools
import Testing

/// Issue 42's rules on the shape of the sources, as tests that run the
/// scripts which say what breaks them. Without python3 they fail: the rules
/// would go unchecked.
@Suite struct SourceShapeTests {
  /// No Swift file under `Sources` over 600 lines and no function over 150
  /// (`scripts/check-lengths`).
  @Test func noFileOrFunctionOverTheLimits() throws {
    let (status, output) = try Self.run("scripts/check-lengths", "Sources")
    #expect(status == 0, "scripts/check-lengths Sources:\n\(output)")
  }

  /// Each target in Package.swift lists what its files import, no more and
  /// no fewer (`scripts/check-dependencies`).
  @Test func eachTargetListsWhatItImports() throws {
    let (status, output) = try Self.run("scripts/check-dependencies")
    #expect(status == 0, "scripts/check-dependencies:\n\(output)")
  }

  private static func run(_ arguments: String...) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try Tool.python3.require())
    process.arguments = arguments
    process.currentDirectoryURL = TestTools.packageRoot
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }
}
