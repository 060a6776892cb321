import Foundation
import Testing

/// How a replay meets the wall clock (issue 14): a file is written at full
/// speed, a pipe gets each frame when it is made, and a reader that goes away
/// ends the replay quietly.
@Suite struct ReplayPacingTests {
  /// Runs `command` in bash from the package root; returns its status, its
  /// output and when (seconds after start) each output line arrived.
  static func shell(_ command: String) throws -> (
    status: Int32, lines: [String], arrivals: [Double], elapsed: Double
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = TiltCLI.packageRoot
    var environment = ProcessInfo.processInfo.environment
    environment["TILT_INPUT_DIR"] = "/nonexistent-input-dir"
    process.environment = environment
    let out = Pipe()
    process.standardOutput = out
    process.standardInput = FileHandle.nullDevice
    let start = Date()
    try process.run()
    var lines: [String] = []
    var arrivals: [Double] = []
    var pending = Data()
    while case let chunk = out.fileHandleForReading.availableData, !chunk.isEmpty {
      pending += chunk
      while let newline = pending.firstIndex(of: 0x0A) {
        lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
        arrivals.append(Date().timeIntervalSince(start))
        pending = pending[(newline + 1)...]
      }
    }
    process.waitUntilExit()
    return (process.terminationStatus, lines, arrivals, Date().timeIntervalSince(start))
  }

  static var cli: String { "'\(TiltCLI.binary.path)'" }

  /// Like `yes | head`: exit 0 and no message when the reader has all it wanted,
  /// even while the card is at rest and nothing is being written. At 1/100 of
  /// real time the demo's first movement would come after 150 s: the replay
  /// must notice the closed pipe without writing.
  @Test func aClosedPipeEndsTheReplayQuietly() throws {
    let r = try Self.shell(
      "\(Self.cli) replay recordings/demo.evemu --speed 0.01 --format jsonl 2>&1 | head -1 >/dev/null; "
        + "exit ${PIPESTATUS[0]}")
    #expect(r.status == 0)
    #expect(r.lines.isEmpty, "no message: \(r.lines)")
    #expect(r.elapsed < 30, "took \(r.elapsed) s")
  }

  @Test func aClosedPipeAtFullSpeedEndsQuietlyToo() throws {
    let r = try Self.shell(
      "\(Self.cli) replay recordings/demo.evemu --speed max --format jsonl 2>&1 | head -1; "
        + "exit ${PIPESTATUS[0]}")
    #expect(r.status == 0)
    #expect(r.lines.count == 1 && r.lines[0].hasPrefix("{\"t\":"), "\(r.lines)")
  }

  /// On a pipe, each frame is written when it is made: the first ones arrive
  /// while the 3 s recording still plays, not all at its end.
  @Test func aPipeGetsEachFrameWhenItIsMade() throws {
    let r = try Self.shell("\(Self.cli) replay recordings/roll-pitch.csv --format jsonl | cat")
    #expect(r.status == 0)
    let golden = try String(
      contentsOf: GoldenTests.golden.appendingPathComponent("roll-pitch.jsonl"), encoding: .utf8)
    #expect(r.lines == golden.split(separator: "\n").map(String.init))
    let first = try #require(r.arrivals.first)
    #expect(r.elapsed - first > 1.5, "first frame at \(first) s, end at \(r.elapsed) s")
  }

  /// `--output FILE` runs at full speed unless `--speed` says otherwise: the
  /// 12 s demo is written in well under its length, with the same bytes.
  @Test func writingAFileRunsAtFullSpeed() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-pacing-\(getpid()).jsonl")
    defer { try? FileManager.default.removeItem(at: file) }
    let r = try Self.shell("\(Self.cli) replay recordings/demo.evemu -o '\(file.path)'")
    #expect(r.status == 0)
    #expect(r.elapsed < 8, "took \(r.elapsed) s for a 12 s recording")
    let written = try String(contentsOf: file, encoding: .utf8)
    let golden = try String(
      contentsOf: GoldenTests.golden.appendingPathComponent("demo.jsonl"), encoding: .utf8)
    #expect(written == golden)
  }
}
