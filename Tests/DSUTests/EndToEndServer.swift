import Foundation
import Synchronization
import TestTools
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A `tilt-cli dsu` process under test: started with its arguments, ready
/// once it printed `serving DSU on udp://HOST:PORT`, stopped with SIGTERM.
final class DSUServerProcess {
  let process = Process()
  /// The port it serves on: the one given, or the one its serving line names.
  private(set) var port: UInt16
  private let stderrText = TextBuffer()

  /// The package root.
  static let packageRoot = TestTools.packageRoot

  /// The built `tilt-cli`, as the CLI tests find it.
  static let binary = TestTools.tiltCLI

  /// The environment every run gets: no machine devices join the slots.
  static var environment: [String: String] {
    var e = ProcessInfo.processInfo.environment
    e["TILT_INPUT_DIR"] = "/nonexistent-input-dir"
    e["TILT_IIO_DIR"] = "/nonexistent-iio-dir"
    return e
  }

  /// A UDP port that was free a moment ago on `host`: a socket's, bound
  /// to port 0 and closed.
  static func freePort(host: String = "127.0.0.1") throws -> UInt16 {
    try DSUTestClient(port: 9, localHost: host).localPort()
  }

  /// Starts `tilt-cli dsu` with `arguments` plus `--listen HOST:PORT` (a
  /// free port unless `port` is given; 0 lets the server choose) and waits
  /// for its `serving` line (up to `timeout` s); `binary` is another build
  /// of `tilt-cli` to measure beside this one.
  init(
    _ arguments: [String], host: String = "127.0.0.1", port: UInt16? = nil, timeout: Double = 20,
    binary: URL = binary
  ) throws {
    self.port = try port ?? Self.freePort(host: host == "0.0.0.0" ? "127.0.0.1" : host)
    process.executableURL = binary
    process.arguments = ["dsu"] + arguments + ["--listen", "\(host):\(self.port)"]
    process.currentDirectoryURL = Self.packageRoot
    process.environment = Self.environment
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    let text = stderrText
    err.fileHandleForReading.readabilityHandler = { handle in
      let data = handle.availableData
      if data.isEmpty {
        handle.readabilityHandler = nil
        return
      }
      text.append(String(decoding: data, as: UTF8.self))
    }
    try process.run()
    let end = Date().addingTimeInterval(timeout)
    while !stderr.contains("serving DSU on udp://") {
      guard process.isRunning, Date() < end else {
        stop()
        throw DSUServerNotReady(arguments: process.arguments ?? [], stderr: stderr)
      }
      usleep(20_000)
    }
    if self.port == 0, let named = Self.servingPort(in: stderr) { self.port = named }
  }

  /// The port of the first `serving DSU on udp://HOST:PORT` line in `text`.
  static func servingPort(in text: String) -> UInt16? {
    guard
      let line = text.split(separator: "\n").first(where: { $0.contains("serving DSU on udp://") }),
      let colon = line.lastIndex(of: ":")
    else { return nil }
    return UInt16(line[line.index(after: colon)...].prefix(while: \.isNumber))
  }

  /// What the server printed on stderr so far.
  var stderr: String { stderrText.text }

  /// SIGTERM, then the exit status (contract §7: SIGTERM exits 0).
  @discardableResult
  func stop() -> Int32 {
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    return process.terminationStatus
  }

  deinit { if process.isRunning { stop() } }

  /// A client for this server.
  func client(localHost: String = "127.0.0.1") throws -> DSUTestClient {
    try DSUTestClient(port: port, localHost: localHost)
  }

  /// Runs `tilt-cli` to its exit (killed after `timeout` s) and returns its
  /// status and stderr: for the runs that must fail before serving.
  static func runToExit(_ arguments: [String], timeout: Double = 20) throws -> (
    status: Int32, stderr: String, timedOut: Bool
  ) {
    let p = Process()
    p.executableURL = binary
    p.arguments = arguments
    p.currentDirectoryURL = packageRoot
    p.environment = environment
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let end = Date().addingTimeInterval(timeout)
    var timedOut = false
    while p.isRunning {
      if Date() > end {
        timedOut = true
        p.terminate()
        break
      }
      usleep(20_000)
    }
    p.waitUntilExit()
    let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (p.terminationStatus, text, timedOut)
  }
}

/// The server exited or stayed silent before its `serving` line.
struct DSUServerNotReady: Error, CustomStringConvertible {
  var arguments: [String]
  var stderr: String
  var description: String {
    "tilt-cli \(arguments.joined(separator: " ")) did not print its serving line; stderr: \(stderr)"
  }
}

/// Text that a reader thread appends to, behind a lock.
private final class TextBuffer: Sendable {
  private let value = Mutex("")
  func append(_ s: String) { value.withLock { $0 += s } }
  var text: String { value.withLock { $0 } }
}
