import Evdev
import Foundation
import TestTools
import Testing
import TiltCard

@testable import Tilt
@testable import tilt_cli

/// Issue 7's bad-input table through the built binary: `tilt-cli replay BAD
/// --format jsonl` and `tilt-cli info BAD` must each exit 1 (not die of a
/// signal, not hang) with one stderr line that names the file and the line
/// and says what is wrong.
@Suite(.timeLimit(.minutes(2))) struct BadInputCLITests {
  /// Where a row's input comes from.
  enum Source: Sendable {
    case text(String)
    case bytes([UInt8])
    /// A 1 GB sparse file: `prefix`, then zeros up to 1 GB.
    case sparseGigabyte(prefix: String)
    case devZero
    case directory
  }

  struct Row: CustomStringConvertible, Sendable {
    var name: String
    /// The file name's extension: `evemu` or `csv`.
    var suffix: String
    var source: Source
    /// The line the error names, 0 for the file as a whole.
    var line: Int
    var message: String
    var description: String { "\(suffix): \(name)" }
  }

  /// An accelerometer that replay accepts; its first event is on line 9.
  static let evemuHeader = """
    # EVEMU 1.3
    N: tilt test accelerometer
    I: 0006 0000 0000 0001
    P: 40 00 00 00 00 00 00 00
    B: 03 07 00 00 00 00 00 00 00
    A: 00 -32768 32767 16 0 8192
    A: 01 -32768 32767 16 0 8192
    A: 02 -32768 32767 16 0 8192

    """
  static let firstEvent = "E: 0.000001 0003 0002 8192\nE: 0.000001 0000 0000 0000\n"
  static let csvHeader = "t_s,acc_x_g,acc_y_g,acc_z_g\n"
  static let events = (0..<500).map {
    "E: 0.\(String(1000 + 2 * $0).dropFirst()) 0003 0002 8192\nE: 0.\(String(1000 + 2 * $0).dropFirst()) 0000 0000 0000\n"
  }.joined()

  static let rows: [Row] = [
    Row(
      name: "truncated event line", suffix: "evemu",
      source: .text(evemuHeader + firstEvent + "E: 0.004000 0003"), line: 11,
      message: "truncated event line: no event code"),
    Row(
      name: "event value not a number", suffix: "evemu",
      source: .text(evemuHeader + "E: 0.000001 0003 0000 twelve\n"), line: 9,
      message: "'twelve' is not a valid event value"),
    Row(
      name: "event value beyond 32 bits", suffix: "evemu",
      source: .text(evemuHeader + "E: 0.000001 0003 0000 4294967296\n"), line: 9,
      message: "event value is outside the 32-bit range"),
    Row(
      name: "events without a header", suffix: "evemu", source: .text(firstEvent), line: 1,
      message: "no evemu header: expected 'N: device name'"),
    Row(
      name: "event time jumping beyond 10^12 s", suffix: "evemu",
      source: .text(evemuHeader + firstEvent + "E: 1000000000001.000000 0000 0000 0\n"),
      line: 11, message: "event time 1000000000001 s is out of range"),
    Row(
      name: "A: minimum above maximum", suffix: "evemu",
      source: .text(
        "N: T\nI: 0006 0000 0000 0001\nP: 40 00 00 00 00 00 00 00\nA: 00 32767 -32768 16 0 8192\n"),
      line: 4, message: "A: axis ABS_X has minimum 32767 above maximum -32768"),
    Row(
      name: "binary bytes among events", suffix: "evemu",
      source: .bytes(Array((evemuHeader + firstEvent).utf8) + [0x45, 0x3A, 0xFF, 0x00]),
      line: 11, message: "not an evemu recording (binary data at line 11)"),
    Row(name: "empty file", suffix: "evemu", source: .text(""), line: 0, message: "empty file"),
    // Issue 20: the 1 025th P: line overflowed a UInt16 and trapped.
    Row(
      name: "1025 P: lines", suffix: "evemu",
      source: .text(
        "N: T\nI: 0006 0000 0000 0001\n"
          + String(repeating: "P: 40 00 00 00 00 00 00 00\n", count: 1025) + firstEvent),
      line: 19, message: "too many P: lines (more than 16)"),
    Row(
      name: "1 GB sparse file after 1000 events", suffix: "evemu",
      source: .sparseGigabyte(prefix: evemuHeader + events), line: 1009,
      message: "not an evemu recording (binary data at line 1009)"),
    Row(
      name: "truncated row", suffix: "csv", source: .text(csvHeader + "0,0,0,1\n0.01,0,0"),
      line: 3, message: "short row: 3 fields, the header has 4"),
    Row(
      name: "acceleration not a number", suffix: "csv", source: .text(csvHeader + "0,0,one,1\n"),
      line: 2, message: "'one' in column acc_y_g is not a number"),
    Row(
      name: "NaN acceleration", suffix: "csv", source: .text(csvHeader + "0,0,0,1\n0.01,nan,0,1\n"),
      line: 3, message: "acc_x_g is nan; a log needs finite numbers there"),
    Row(
      name: "infinite acceleration", suffix: "csv", source: .text(csvHeader + "0,0,-inf,1\n"),
      line: 2, message: "acc_y_g is -inf"),
    Row(
      name: "acceleration out of range", suffix: "csv", source: .text(csvHeader + "0,1e300,0,1\n"),
      line: 2, message: "acc_x_g is 1e+300, beyond ±1000000000"),
    Row(
      name: "time going backwards", suffix: "csv",
      source: .text(csvHeader + "0,0,0,1\n2.5,0,0,1\n2.4,0,0,1\n"), line: 4,
      message: "t_s goes backwards (2.4 after 2.5)"),
    Row(
      name: "time jumping beyond 10^12 s", suffix: "csv",
      source: .text(csvHeader + "0,0,0,1\n1e13,0,0,1\n"), line: 3,
      message: "t_s is 10000000000000.0, beyond ±1000000000000"),
    Row(
      name: "rows without a header", suffix: "csv", source: .text("0,0,0,1\n0.01,0,0,1\n"),
      line: 1, message: "no t_s column"),
    Row(
      name: "1 GB sparse file after two rows", suffix: "csv",
      source: .sparseGigabyte(prefix: csvHeader + "0,0,0,1\n0.01,0,0,1\n"), line: 4,
      message: "not a CSV log (binary data at line 4)"),
    Row(
      name: "a directory", suffix: "evemu", source: .directory, line: 0,
      message: "is a directory; give"),
  ]

  static func scratchDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-cli-bad-input-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  /// Makes the input of `row` and returns its path.
  static func path(of row: Row) throws -> String {
    let dir = try scratchDirectory()
    let path = dir.appendingPathComponent("bad.\(row.suffix)").path
    switch row.source {
    case .text(let text):
      _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    case .bytes(let bytes):
      _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    case .sparseGigabyte(let prefix):
      _ = FileManager.default.createFile(atPath: path, contents: Data(prefix.utf8))
      try #require(truncate(path, 1 << 30) == 0, "cannot make a 1 GB sparse file at \(path)")
    case .devZero: return "/dev/zero"
    case .directory: return dir.path
    }
    return path
  }

  /// Removes what `path(of:)` made for `row`.
  static func remove(_ path: String, of row: Row) {
    switch row.source {
    case .devZero: return
    case .directory: try? FileManager.default.removeItem(atPath: path)
    default:
      try? FileManager.default.removeItem(
        at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }
  }

  /// Exit 1 and one line on stderr: `tilt-cli COMMAND: PATH:LINE: message`.
  static func expectClearFailure(
    _ result: TiltCLI.Result, command: String, path: String, row: Row
  ) {
    let location = row.line > 0 ? "\(path):\(row.line): " : "\(path): "
    #expect(
      result.status == 1, "\(command) \(row): exit \(result.status), stderr: \(result.stderr)")
    #expect(
      result.stderr.hasPrefix("tilt-cli \(command): \(location)"),
      "\(command) \(row): stderr does not start with the location: \(result.stderr)")
    #expect(
      result.stderr.contains(row.message),
      "\(command) \(row): stderr lacks '\(row.message)': \(result.stderr)")
    #expect(result.stderr.hasSuffix("\n") && result.stderr.split(separator: "\n").count == 1)
  }

  @Test(arguments: rows)
  func replayExitsOneNamingFileAndLine(_ row: Row) throws {
    let path = try Self.path(of: row)
    defer { Self.remove(path, of: row) }
    let result = try TiltCLI.run(["replay", path, "--format", "jsonl"])
    Self.expectClearFailure(result, command: "replay", path: path, row: row)
    // Checked before its first frame (contract §3.4): nothing is played.
    #expect(result.stdout.isEmpty, "\(row): frames before the error: \(result.stdout.prefix(200))")
  }

  @Test(arguments: rows)
  func infoExitsOneNamingFileAndLine(_ row: Row) throws {
    let path = try Self.path(of: row)
    defer { Self.remove(path, of: row) }
    let result = try TiltCLI.run(["info", path])
    Self.expectClearFailure(result, command: "info", path: path, row: row)
    #expect(result.stdout.isEmpty)
  }

  @Test func replayOfDevZeroIsRefusedAsBinary() throws {
    let result = try TiltCLI.run(["replay", "/dev/zero", "--format", "jsonl"])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "tilt-cli replay: /dev/zero:1: not an evemu recording (binary data at line 1); "
        + "\(RecordingError.giveARecording)\n")
    #expect(result.stdout.isEmpty)
  }

  /// `/dev/zero` is a character device, so `info` opens it as an evdev node.
  @Test func infoOfDevZeroSaysItIsNoInputDevice() throws {
    let result = try TiltCLI.run(["info", "/dev/zero"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("tilt-cli info: /dev/zero"), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stdout.isEmpty)
  }

  /// A device with no usable axes: replay cannot drive the card (exit 1, the
  /// file and why); info's job is to say what it is (exit 0, `unsupported`).
  @Test func aDeviceWithNoUsableAxes() throws {
    let dir = try Self.scratchDirectory()
    let path = dir.appendingPathComponent("keys.evemu").path
    let text = "N: keys\nI: 0003 0000 0000 0001\nB: 01 00 00 00 00 00 00 01 00\n"
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    let replay = try TiltCLI.run(["replay", path, "--format", "jsonl"])
    #expect(replay.status == 1)
    #expect(replay.stderr.hasPrefix("tilt-cli replay: \(path): \"keys\" can't drive the card"))
    #expect(replay.stderr.contains("keys or buttons only (no absolute axes)"), "\(replay.stderr)")
    let info = try TiltCLI.run(["info", path])
    #expect(info.status == 0, "\(info.stderr)")
    #expect(info.stdout.contains("unsupported"), "\(info.stdout)")
    #expect(info.stdout.contains("keys or buttons only"), "\(info.stdout)")
  }

  /// Resolution 0 on an accelerometer: replay still runs, on a stated guess.
  @Test func resolutionZeroStillReplays() throws {
    let dir = try Self.scratchDirectory()
    let path = dir.appendingPathComponent("res0.evemu").path
    let text = Self.evemuHeader.replacingOccurrences(of: " 8192\n", with: " 0\n") + Self.events
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    let replay = try TiltCLI.run(["replay", path, "--format", "jsonl", "--speed", "max"])
    #expect(replay.status == 0, "\(replay.stderr)")
    #expect(!replay.stdout.isEmpty)
    let info = try TiltCLI.run(["info", path])
    #expect(info.status == 0, "\(info.stderr)")
    #expect(info.stdout.contains("no resolution reported"), "\(info.stdout)")
  }

  // MARK: Recordings checked before they play (issue 22), parsers bound (issue 20)

  /// The demo's lines, and a scratch file holding `text`.
  static func demoLines() throws -> [Substring] {
    try String(
      contentsOf: TiltCLI.packageRoot.appendingPathComponent("recordings/demo.evemu"),
      encoding: .utf8
    ).split(separator: "\n", omittingEmptySubsequences: false)
  }

  static func scratchFile(_ text: String, name: String) throws -> String {
    let path = try scratchDirectory().appendingPathComponent(name).path
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
  }

  /// The demo cut in the middle of a line halfway through: replay at the
  /// recording's pace played 4.6 s of it before the error. Now it fails at
  /// once (well under a second of the 13 s recording), nothing played.
  @Test func aRecordingCutMidLineFailsBeforeItsFirstFrame() throws {
    let lines = try Self.demoLines()
    let half = lines.count / 2
    let cut = lines[..<half].joined(separator: "\n") + "\n" + lines[half].prefix(12)
    let path = try Self.scratchFile(String(cut), name: "cut.evemu")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let start = Date()
    let result = try TiltCLI.run(["replay", path, "--format", "jsonl", "--speed", "1"])
    let seconds = Date().timeIntervalSince(start)
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty, "frames were played: \(result.stdout.prefix(200))")
    #expect(
      result.stderr.hasPrefix("tilt-cli replay: \(path):\(half + 1): truncated event line"),
      "\(result.stderr)")
    #expect(seconds < 3, "the error came after \(seconds) s")
  }

  /// The demo cut at a line boundary inside its last frame: it played
  /// silently and exited 0. It still plays (exit 0), and stderr says so.
  @Test func aLastFrameWithoutSynReportIsSaid() throws {
    func isSynReport(_ line: Substring) -> Bool {
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      return fields.count >= 4 && fields[0] == "E:" && fields[2] == "0000" && fields[3] == "0000"
    }
    var lines = try Self.demoLines()
    while let last = lines.last, !last.hasPrefix("E:") || isSynReport(last) { lines.removeLast() }
    let path = try Self.scratchFile(lines.joined(separator: "\n") + "\n", name: "open.evemu")
    defer { try? FileManager.default.removeItem(atPath: path) }
    var frameStart = lines.count
    while frameStart > 1, !isSynReport(lines[frameStart - 2]) { frameStart -= 1 }
    let span =
      frameStart == lines.count ? "line \(frameStart)" : "lines \(frameStart)–\(lines.count)"
    let events = lines.count - frameStart + 1
    let note =
      "\(path):\(lines.count): the last frame (\(span), \(events) event\(events == 1 ? "" : "s")) is not"
      + " closed by SYN_REPORT: the recording was cut short; that frame is played as it is\n"
    let replay = try TiltCLI.run(["replay", path, "--format", "jsonl", "--speed", "max"])
    #expect(replay.status == 0, "\(replay.stderr)")
    #expect(!replay.stdout.isEmpty)
    #expect(replay.stderr == "tilt-cli replay: " + note)
    let info = try TiltCLI.run(["info", path])
    #expect(info.status == 0, "\(info.stderr)")
    #expect(info.stderr == "tilt-cli info: " + note)
  }

  /// 1 million events and no SYN_REPORT (3 million took 120 MiB, a whole
  /// replay 23): frames are cut at 4 096 events and said, with the line,
  /// and `info`'s peak memory is that of a short file (measured on the
  /// binary's own peak resident set, as StreamingMemoryTests does).
  @Test(.needs(.python3)) func aFrameThatNeverEndsIsCutInFlatMemory() throws {
    let header = Self.evemuHeader + Self.firstEvent
    func recording(events: Int, name: String) throws -> String {
      let path = try Self.scratchDirectory().appendingPathComponent(name).path
      _ = FileManager.default.createFile(atPath: path, contents: Data(header.utf8))
      let handle = try #require(FileHandle(forWritingAtPath: path))
      handle.seekToEndOfFile()
      let chunk = Data(String(repeating: "E: 0.010000 0003 0000 -12345\n", count: 10_000).utf8)
      for _ in 0..<(events / 10_000) { handle.write(chunk) }
      handle.write(Data("E: 0.010000 0000 0000 0000\n".utf8))
      handle.closeFile()
      return path
    }
    let long = try recording(events: 1_000_000, name: "endless.evemu")
    let short = try recording(events: 10_000, name: "short.evemu")
    defer {
      for path in [long, short] {
        try? FileManager.default.removeItem(
          at: URL(fileURLWithPath: path).deletingLastPathComponent())
      }
    }
    let python = try Tool.python3.require()
    let measure = """
      import resource, subprocess, sys
      r = subprocess.run(sys.argv[1:], capture_output=True, text=True)
      sys.stderr.write(r.stderr)
      print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
      """
    func peak(_ path: String) throws -> (status: Int, bytes: Int, stderr: String) {
      let r = try TiltCLI.runTool(python, ["-c", measure, TiltCLI.binary.path, "info", path])
      let fields = r.stdout.split(separator: " ").compactMap {
        Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      return (fields.first ?? -1, (fields.last ?? 0) * 1024, r.stderr)
    }
    let big = try peak(long)
    let small = try peak(short)
    #expect(big.status == 0, "\(big.stderr)")
    let firstCut = 10 + 4096
    #expect(
      big.stderr.hasPrefix(
        "tilt-cli info: \(long):\(firstCut): 4096 events without a SYN_REPORT, more than any device"
      ),
      "\(big.stderr)")
    #expect(big.stderr.contains("(244 such cuts in the file)"), "\(big.stderr)")
    #expect(small.bytes > 0)
    let grown = big.bytes - small.bytes
    #expect(grown < 8 << 20, "peak memory grew by \(grown >> 20) MB for 1 million events")
  }

  // MARK: Names that speak to the terminal (issue 20)

  static let hostileName = "pad\u{1B}]0;owned\u{07}\u{1B}]52;c;aGk=\u{07} \u{202E}x\u{9B}2J"

  /// A recording's `N:` line with escape sequences (retitle the terminal,
  /// write its clipboard: OSC 52) was printed as is by `info`. Now its
  /// control characters are shown as escapes; `--json` has JSON escapes.
  @Test func aHostileNameIsEscapedByInfo() throws {
    let text =
      Self.evemuHeader.replacingOccurrences(
        of: "N: tilt test accelerometer", with: "N: " + Self.hostileName) + Self.events
    let path = try Self.scratchFile(text, name: "evil.evemu")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let info = try TiltCLI.run(["info", path])
    #expect(info.status == 0, "\(info.stderr)")
    #expect(
      info.stdout.contains("name: pad\\e]0;owned\\x07\\e]52;c;aGk=\\x07 \\u{202E}x\\u{9B}2J\n"),
      "\(info.stdout)")
    for raw in ["\u{1B}", "\u{07}", "\u{202E}", "\u{9B}"] { #expect(!info.stdout.contains(raw)) }
    let json = try TiltCLI.run(["info", path, "--json"])
    #expect(json.status == 0)
    #expect(
      json.stdout.contains(
        #""name": "pad\u001b]0;owned\u0007\u001b]52;c;aGk=\u0007 \u202ex\u009b2J""#),
      "\(json.stdout)")
    for raw in ["\u{1B}", "\u{07}", "\u{202E}", "\u{9B}"] { #expect(!json.stdout.contains(raw)) }
  }

  /// An error's preview of a bad line, and the file's own name, carried
  /// escape sequences to stderr as they were.
  @Test func errorPreviewsAndFileNamesAreEscaped() throws {
    let text = Self.evemuHeader + "E: 0.000001 0003 0000 \u{1B}]0;owned\u{07}\n"
    let path = try Self.scratchFile(text, name: "bad\u{1B}[31m.evemu")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let shown = path.replacingOccurrences(of: "\u{1B}", with: "\\e")
    for command in ["replay", "info"] {
      let result = try TiltCLI.run([command, path])
      #expect(result.status == 1)
      #expect(
        result.stderr
          == "tilt-cli \(command): \(shown):9: '\\e]0;owned\\x07' is not a valid event value (decimal);"
          + " an event line is 'E: SEC.USEC TYPE CODE VALUE'\n")
    }
  }

  /// A CSV log's column names are the file's text too.
  @Test func csvColumnNamesAreEscaped() throws {
    let path = try Self.scratchFile(
      "t_s,acc_x_g,acc_y_g,acc_z_g,opt_\u{1B}]0;owned\u{07}\n0,0,0,1,0\n", name: "evil.csv")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let info = try TiltCLI.run(["info", path])
    #expect(info.status == 0, "\(info.stderr)")
    #expect(info.stdout.contains("ground truth: opt_\\e]0;owned\\x07\n"), "\(info.stdout)")
    #expect(!info.stdout.contains("\u{1B}"))
  }

  /// A device's name (any local user with /dev/uinput picks it) reached
  /// `devices`' table and `--json` raw. Now escaped as on every terminal.
  @Test func aHostileDeviceNameIsEscapedByDevices() {
    let info = DeviceInfo(
      name: Self.hostileName, codes: [EventType.abs: [0, 1], EventType.key: [0x130]],
      absInfo: [
        0: AbsInfo(minimum: -32767, maximum: 32767), 1: AbsInfo(minimum: -32767, maximum: 32767),
      ])
    let listing = DeviceListing(
      entries: [
        DeviceListing.Entry(
          device: DiscoveredDevice(path: "/dev/input/event4", info: info, openError: nil),
          profile: DeviceProfile.classify(info))
      ], directory: "/dev/input")
    let table = listing.table(describingErrors: LibraryErrorText.describe)
    #expect(table.contains("pad\\e]0;owned\\x07\\e]52;c;aGk=\\x07 \\u{202E}x\\u{9B}2J"), "\(table)")
    let json = listing.json(describingErrors: LibraryErrorText.describe).serialized(pretty: true)
    #expect(
      json.contains(#""name": "pad\u001b]0;owned\u0007\u001b]52;c;aGk=\u0007 \u202ex\u009b2J""#),
      "\(json)")
    for raw in ["\u{1B}", "\u{07}", "\u{202E}", "\u{9B}"] {
      #expect(!table.contains(raw))
      #expect(!json.contains(raw))
    }
  }

  /// `record` of a device whose name has a newline wrote it raw: the newline
  /// injected header lines. Now the file keeps one `N:` line, and the name
  /// read back is what the terminal shows for the device itself
  /// (`TerminalText.escaped`): the writer's spelling and the terminal's agree.
  @Test func recordKeepsAHostileNameOnOneHeaderLine() throws {
    var info = RecorderTests.info
    info.name = "pad\nN: injected\nI: 0003 0000 0000 0000\n" + Self.hostileName
    let device = RecorderTests.FakeDevice(info: info, batches: [RecorderTests.frames(10, seed: 1)])
    let path = try Self.scratchDirectory().appendingPathComponent("named.evemu").path
    defer {
      try? FileManager.default.removeItem(
        at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }
    _ = try Recorder(device: device, devicePath: "fake", outputPath: path, duration: nil).run()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("N:") }.count == 1, "\(lines.prefix(40))")
    #expect(lines.filter { $0.hasPrefix("I:") }.count == 1)
    #expect(!text.contains("\u{1B}") && !text.contains("\u{9B}") && !text.contains("\u{202E}"))
    let reader = try EvemuReader(path: path)
    #expect(reader.info.name == TerminalText.escaped(info.name))
    #expect(reader.info.id == info.id)
  }
}
