import Foundation
import Synchronization
import TestTools

/// Runs the built `tilt-cli` binary and captures what it prints.
enum TiltCLI {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// The package root, found from this file's path.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `../shared/data` beside the package, where the third-party data lives.
  static let sharedData = TestTools.sharedData

  /// Whether `../shared/data` is there; tests that need it say so with
  /// `.needsSharedData()`, so its absence shows as a skip.
  static var hasSharedData: Bool { TestTools.sharedData("README.md") != nil }

  /// The binary beside the test bundle (the same build directory).
  static let binary = TestTools.tiltCLI

  static func run(_ arguments: [String], stdin: String? = nil, in directory: URL? = nil) throws
    -> Result
  {
    try runTool(binary.path, arguments, stdin: stdin, in: directory)
  }

  /// Runs the binary with its standard streams on a terminal (a pseudo-terminal
  /// made by util-linux's `script`), as a person at a shell would; what it
  /// prints on both streams comes back as `stdout`.
  static func runOnTerminal(_ arguments: [String], environment: [String: String] = [:]) throws
    -> Result
  {
    let script = try Tool.script.require()
    func quoted(_ s: String) -> String {
      "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
    let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(quoted($0.value))" }
    // The colour variables only as the test gives them.
    let cleared = ["-u", "NO_COLOR", "-u", "COLORTERM", "-u", "TERM"]
    let command = (["env"] + cleared + assignments + ([binary.path] + arguments).map(quoted))
      .joined(separator: " ")
    var r = try runTool(script, ["-qec", command, "/dev/null"])
    r.stdout = r.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    return r
  }

  /// Runs any program the same way.
  static func runTool(
    _ path: String, _ arguments: [String], stdin: String? = nil, in directory: URL? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.currentDirectoryURL = directory ?? packageRoot
    var environment = ProcessInfo.processInfo.environment
    environment["TILT_INPUT_DIR"] = environment["TILT_INPUT_DIR"] ?? "/nonexistent-input-dir"
    // Nor the machine's IIO sensors (a tablet's accelerometer would join every listing).
    environment["TILT_IIO_DIR"] = environment["TILT_IIO_DIR"] ?? "/nonexistent-iio-dir"
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    // Feed and drain on their own threads, so no pipe can fill and stall the child.
    let collected = Collected()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
      try? input.fileHandleForWriting.close()
    }
    DispatchQueue.global().async(group: group) {
      collected.set(out: out.fileHandleForReading.readDataToEndOfFile())
    }
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    let outData = collected.out
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}

/// What a reader thread hands back, behind a lock.
private final class Collected: Sendable {
  private let data = Mutex(Data())

  func set(out: Data) { data.withLock { $0 = out } }

  var out: Data { data.withLock { $0 } }
}
