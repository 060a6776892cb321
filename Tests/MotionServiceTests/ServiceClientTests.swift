import Foundation
import TestTools
import Testing

/// Contract §8 checked from outside: `Tests/service-client`, a client written
/// in Python with jeepney from the contract alone, against the built tilt-cli
/// on a private dbus-daemon that it starts itself.
@Suite struct ServiceClientTests {
  static let dbusDaemon = Tool("dbus-daemon", package: "dbus-daemon")
  /// Debian's python3 (python3-jeepney is installed for it), else the first on PATH.
  static let python = Tool("/usr/bin/python3", "python3", package: "python3-jeepney")

  @Test(.needs(dbusDaemon, python)) func everyPointOfSection8() throws {
    let python = try Self.python.require()
    _ = try Self.dbusDaemon.require()
    guard try Self.jeepneyIsThere(python) else { return }
    let directory = TestTools.packageRoot.appendingPathComponent("Tests/service-client")
    let result = try Self.run(
      python, ["-m", "unittest", "-v", "test_motion_service"], directory: directory,
      environment: [
        "TILT_CLI": TestTools.tiltCLI.path, "TILT_ROOT": TestTools.packageRoot.path,
      ])
    #expect(result.status == 0, "\(result.output)")
    print(result.output)
  }

  /// Whether `python` imports jeepney; its absence fails the test when
  /// tools are required, else skips what needs it.
  static func jeepneyIsThere(_ python: String) throws -> Bool {
    let check = try run(python, ["-c", "import jeepney"])
    try #require(
      check.status == 0 || !TestTools.toolsRequired,
      "jeepney is not installed (apt-get install python3-jeepney)")
    return check.status == 0
  }

  private static func run(
    _ executable: String, _ arguments: [String], directory: URL? = nil,
    environment: [String: String] = [:]
  ) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
