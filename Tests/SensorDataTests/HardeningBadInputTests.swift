import Foundation
import Testing

@testable import SensorData

/// Issue 7's bad-input table at the reader level: each bad input, in each
/// format it applies to, must end in a `RecordingError` that names the file
/// and the line (0 for the file as a whole) and says what is wrong — never a
/// crash, a hang or memory that grows with the file.
@Suite struct HardeningBadInputTests {
  enum Format: String, Sendable {
    case evemu
    case csv
  }

  /// Where a row's input comes from.
  enum Source: Sendable {
    case text(String)
    case bytes([UInt8])
    /// `/dev/zero`: endless NUL bytes.
    case devZero
    /// A directory instead of a file.
    case directory
    /// A 1 GB sparse file: `prefix`, then zeros (a hole) up to 1 GB.
    case sparseGigabyte(prefix: String)
  }

  struct Row: CustomStringConvertible, Sendable {
    var name: String
    var format: Format
    var source: Source
    var kind: RecordingError.Kind
    var line: Int
    var message: String
    var description: String { "\(format.rawValue): \(name)" }
  }

  static let evemuHeader = "# EVEMU 1.3\nN: Pad\nI: 0003 054c 0ce6 8111\n"
  /// A device no driver quirk knows (a DualSense's ids would bring its units).
  static let unknownDeviceHeader = "# EVEMU 1.3\nN: Pad\nI: 0003 1d6b 7a17 0001\n"
  /// Line 4 of an evemu row is the first line after `evemuHeader`.
  static let csvHeader = "t_s,acc_x_g,acc_y_g,acc_z_g\n"
  static let events = (0..<1000).map { "E: 0.\(String(1000 + $0).dropFirst()) 0003 0000 1\n" }
    .joined()

  static let rows: [Row] = [
    // Truncated lines.
    Row(
      name: "truncated A: line", format: .evemu, source: .text(evemuHeader + "A: 00 -32768\n"),
      kind: .truncated, line: 4, message: "truncated A: line: 2 of 5 numbers"),
    Row(
      name: "truncated event line", format: .evemu,
      source: .text(evemuHeader + "E: 0.000001 0003 0000 5\nE: 0.000002 0003"),
      kind: .truncated, line: 5, message: "truncated event line: no event code"),
    Row(
      name: "truncated row", format: .csv, source: .text(csvHeader + "0,0,0,1\n0.01,0,0"),
      kind: .truncated, line: 3, message: "short row: 3 fields, the header has 4"),
    // Non-numbers.
    Row(
      name: "event value not a number", format: .evemu,
      source: .text(evemuHeader + "E: 0.000001 0003 0000 twelve\n"), kind: .notANumber, line: 4,
      message: "'twelve' is not a valid event value"),
    Row(
      name: "A: maximum not a number", format: .evemu,
      source: .text(evemuHeader + "A: 00 -32768 max 16 0 8192\n"), kind: .notANumber, line: 4,
      message: "'max' in the A: line is not a decimal number"),
    Row(
      name: "acceleration not a number", format: .csv, source: .text(csvHeader + "0,0,one,1\n"),
      kind: .notANumber, line: 2, message: "'one' in column acc_y_g is not a number"),
    // Numbers out of range.
    Row(
      name: "event value beyond 32 bits", format: .evemu,
      source: .text(evemuHeader + "E: 0.000001 0003 0000 4294967296\n"), kind: .outOfRange,
      line: 4, message: "event value is outside the 32-bit range"),
    Row(
      name: "event code beyond ABS_MAX", format: .evemu,
      source: .text(evemuHeader + "E: 0.000001 0003 00ff 1\n"), kind: .outOfRange, line: 4,
      message: "event code 0xff is out of range for type 0x3"),
    Row(
      name: "I: field beyond 16 bits", format: .evemu,
      source: .text("N: Pad\nI: 0003 1054c 0ce6 8111\n"), kind: .outOfRange, line: 2,
      message: "I: field 0x1054c is larger than 0xffff"),
    Row(
      name: "acceleration out of range", format: .csv, source: .text(csvHeader + "0,1e300,0,1\n"),
      kind: .outOfRange, line: 2, message: "acc_x_g is 1e+300, beyond ±1000000000"),
    // NaN and infinities.
    Row(
      name: "NaN acceleration", format: .csv, source: .text(csvHeader + "0,0,0,1\n0.01,NaN,0,1\n"),
      kind: .notFinite, line: 3, message: "acc_x_g is nan; a log needs finite numbers there"),
    Row(
      name: "infinite acceleration", format: .csv, source: .text(csvHeader + "0,0,-inf,1\n"),
      kind: .notFinite, line: 2, message: "acc_y_g is -inf"),
    Row(
      name: "infinite time", format: .csv, source: .text(csvHeader + "Infinity,0,0,1\n"),
      kind: .notFinite, line: 2, message: "t_s is inf"),
    // A missing header.
    Row(
      name: "events without a header", format: .evemu,
      source: .text("E: 0.000001 0003 0000 1\n"), kind: .header, line: 1,
      message: "no evemu header: expected 'N: device name' before this line"),
    Row(
      name: "no I: line", format: .evemu, source: .text("N: Pad\nA: 00 0 1 0 0\n"), kind: .header,
      line: 2, message: "expected 'I: bustype vendor product version' after the name"),
    Row(
      name: "rows without a header", format: .csv, source: .text("0,0,0,1\n0.01,0,0,1\n"),
      kind: .missingColumn, line: 1, message: "no t_s column"),
    // Timestamps going backwards or jumping out of range.
    Row(
      name: "time going backwards", format: .csv,
      source: .text(csvHeader + "0,0,0,1\n2.5,0,0,1\n2.4,0,0,1\n"), kind: .timeBackwards, line: 4,
      message: "t_s goes backwards (2.4 after 2.5); sort the log by time"),
    Row(
      name: "time jumping beyond 10^12 s", format: .csv,
      source: .text(csvHeader + "0,0,0,1\n1e13,0,0,1\n"), kind: .outOfRange, line: 3,
      message: "t_s is 10000000000000.0, beyond ±1000000000000"),
    Row(
      name: "event time jumping beyond 10^12 s", format: .evemu,
      source: .text(evemuHeader + "E: 0.000001 0003 0000 1\nE: 1000000000001.000000 0000 0000 0\n"),
      kind: .outOfRange, line: 5, message: "event time 1000000000001 s is out of range"),
    // min > max.
    Row(
      name: "A: minimum above maximum", format: .evemu,
      source: .text(evemuHeader + "A: 00 32767 -32768 16 0 8192\n"), kind: .outOfRange, line: 4,
      message: "A: axis ABS_X has minimum 32767 above maximum -32768"),
    // Empty files, binary bytes.
    Row(
      name: "empty file", format: .evemu, source: .text(""), kind: .empty, line: 0,
      message: "empty file"),
    Row(
      name: "empty file", format: .csv, source: .text(""), kind: .empty, line: 0,
      message: "empty file; a CSV log needs t_s"),
    Row(
      name: "binary bytes among events", format: .evemu,
      source: .bytes(Array((evemuHeader + "E: 0.000001 0003 0000 1\n").utf8) + [0x45, 0x3A, 0xFF]),
      kind: .binary, line: 5, message: "not an evemu recording (binary data at line 5)"),
    Row(
      name: "binary bytes in a row", format: .csv,
      source: .bytes(Array((csvHeader + "0,0,0,1\n").utf8) + [0x30, 0x2C, 0x00, 0x0A]),
      kind: .binary, line: 3, message: "not a CSV log (binary data at line 3)"),
    // /dev/zero, a directory, a 1 GB file.
    Row(
      name: "/dev/zero", format: .evemu, source: .devZero, kind: .binary, line: 1,
      message: "not an evemu recording (binary data at line 1)"),
    Row(
      name: "/dev/zero", format: .csv, source: .devZero, kind: .binary, line: 1,
      message: "not a CSV log (binary data at line 1)"),
    Row(
      name: "a directory", format: .evemu, source: .directory, kind: .directory, line: 0,
      message: "is a directory; give a recording file inside it"),
    Row(
      name: "a directory", format: .csv, source: .directory, kind: .directory, line: 0,
      message: "is a directory; give a recording file inside it"),
    Row(
      name: "1 GB sparse file after 1000 events", format: .evemu,
      source: .sparseGigabyte(prefix: evemuHeader + events), kind: .binary, line: 1004,
      message: "not an evemu recording (binary data at line 1004)"),
    Row(
      name: "1 GB sparse file after two rows", format: .csv,
      source: .sparseGigabyte(prefix: csvHeader + "0,0,0,1\n0.01,0,0,1\n"), kind: .binary,
      line: 4, message: "not a CSV log (binary data at line 4)"),
  ]

  /// Makes the input of `source` and returns its path.
  static func path(of source: Source, format: Format) throws -> String {
    let name = "bad.\(format.rawValue)"
    switch source {
    case .text(let text): return TestData.file(text, name: name)
    case .bytes(let bytes): return TestData.file(bytes: bytes, name: name)
    case .devZero: return "/dev/zero"
    case .directory: return TestData.scratchDirectory()
    case .sparseGigabyte(let prefix):
      let path = TestData.file(prefix, name: name)
      #expect(truncate(path, 1 << 30) == 0, "cannot make a sparse file at \(path)")
      return path
    }
  }

  /// Reads everything in `path` as `format`.
  static func readAll(_ path: String, as format: Format) throws(RecordingError) {
    switch format {
    case .evemu:
      let reader = try EvemuReader(path: path)
      while try reader.nextFrame() != nil {}
    case .csv:
      let reader = try CSVMotionReader(path: path)
      while try reader.nextSample() != nil {}
    }
  }

  @Test(arguments: rows)
  func badInputGivesAClearError(_ row: Row) throws {
    let path = try Self.path(of: row.source, format: row.format)
    defer {
      if case .sparseGigabyte = row.source { try? FileManager.default.removeItem(atPath: path) }
    }
    let error = #expect(throws: RecordingError.self) { try Self.readAll(path, as: row.format) }
    #expect(error?.kind == row.kind, "\(error?.description ?? "no error")")
    #expect(error?.file == path)
    #expect(error?.line == row.line, "\(error?.description ?? "no error")")
    #expect(error?.message.contains(row.message) == true, "\(error?.description ?? "no error")")
    let location = row.line > 0 ? "\(path):\(row.line): " : "\(path): "
    #expect(error?.description.hasPrefix(location) == true)
  }

  // Inputs that are odd but readable: the reader accepts them and says what
  // it made of them, so the layer above can decide.

  @Test func evemuTimeGoingBackwardsIsCountedNotRefused() throws {
    let path = TestData.file(
      Self.evemuHeader
        + "E: 5.000000 0003 0000 1\nE: 5.000000 0000 0000 0\nE: 4.000000 0003 0000 2\nE: 4.000000 0000 0000 0\n"
    )
    let reader = try EvemuReader(path: path)
    let frames = try reader.allFrames()
    #expect(frames.count == 2)
    #expect(reader.backwardSteps == 1)
  }

  @Test func aTenSecondJumpInACSVLogIsKept() throws {
    let path = TestData.file(
      Self.csvHeader + "0,0,0,1\n0.01,0,0,1\n10.01,0,0,1\n", name: "jump.csv")
    let reader = try CSVMotionReader(path: path)
    var times: [Double] = []
    while let sample = try reader.nextSample() { times.append(sample.time) }
    #expect(times == [0, 0.01, 10.01])
  }

  @Test func resolutionZeroStillClassifiesAsAnAccelerometer() throws {
    let path = TestData.file(
      Self.unknownDeviceHeader + "P: 40 00 00 00 00 00 00 00\nB: 03 07 00 00 00 00 00 00 00\n"
        + "A: 00 -512 511 0 0 0\nA: 01 -512 511 0 0 0\nA: 02 -512 511 0 0 0\n")
    let profile = DeviceProfile.classify(try EvemuReader(path: path).info)
    #expect(profile.kind == .accelerometer)
    #expect(profile.accelResolution == 255.5)
    #expect(profile.reason.contains("no resolution reported: assumed 255 units/g"))
  }

  @Test func resolutionZeroOnAGyroscopeDropsOnlyTheGyroscope() throws {
    let path = TestData.file(
      Self.unknownDeviceHeader + "P: 40 00 00 00 00 00 00 00\nB: 03 3f 00 00 00 00 00 00 00\n"
        + "A: 00 -32768 32767 16 0 8192\nA: 01 -32768 32767 16 0 8192\nA: 02 -32768 32767 16 0 8192\n"
        + "A: 03 -32768 32767 16 0 0\nA: 04 -32768 32767 16 0 0\nA: 05 -32768 32767 16 0 0\n")
    let profile = DeviceProfile.classify(try EvemuReader(path: path).info)
    #expect(profile.kind == .accelerometer)
    #expect(profile.accelResolution == 8192)
    #expect(profile.reason.contains("gyroscope ignored: no resolution or no valid range"))
  }

  @Test(arguments: [
    (
      "accelerometer property, no axes",
      "P: 40 00 00 00 00 00 00 00\nB: 03 00 00 00 00 00 00 00 00\n",
      "an accelerometer node without ABS_X/ABS_Y/ABS_Z; the driver reports no usable axes"
    ),
    (
      "no axes at all", "B: 01 00 00 00 00 00 00 00 00\n",
      "no accelerometer, no gyroscope and no stick"
    ),
    ("buttons only", "B: 01 00 00 00 00 00 00 01 00\n", "keys or buttons only (no absolute axes)"),
    (
      "zero-width range",
      "P: 40 00 00 00 00 00 00 00\nB: 03 07 00 00 00 00 00 00 00\nA: 00 0 0 0 0 0\nA: 01 0 0 0 0 0\nA: 02 0 0 0 0 0\n",
      "ABS_X has no valid range (minimum ≥ maximum)"
    ),
  ])
  func aDeviceWithNoUsableAxesIsUnsupportedWithAReason(
    name: String, lines: String, reason: String
  ) throws {
    let path = TestData.file(Self.evemuHeader + lines + "E: 0.000001 0000 0000 0\n")
    let reader = try EvemuReader(path: path)
    let profile = DeviceProfile.classify(reader.info)
    #expect(profile.kind == .unsupported, "\(name)")
    #expect(profile.reason.contains(reason), "\(name): \(profile.reason)")
  }

  /// A 32 MB recording with a truncated last line: checked before its first
  /// frame (contract §3.4), it is an error at the exact line at once, with no frame
  /// played. (That memory stays flat meanwhile is measured on the binary's
  /// own peak, in CLITests' StreamingMemoryTests: this process's resident
  /// set moves with the tests running beside it.)
  @Test func aLongRecordingIsReadToItsError() throws {
    let path = TestData.scratchDirectory() + "/long.evemu"
    _ = FileManager.default.createFile(atPath: path, contents: Data(Self.evemuHeader.utf8))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    handle.seekToEndOfFile()
    let frame = "E: 12.345678 0003 0000 -12345\nE: 12.345678 0000 0000 0000\n"
    let chunk = Data(String(repeating: frame, count: 8192).utf8)
    let chunks = (32 << 20) / chunk.count
    for _ in 0..<chunks { handle.write(chunk) }
    handle.write(Data("E: 12.345678 0003".utf8))
    handle.closeFile()
    let lastLine = 3 + chunks * 8192 * 2 + 1

    var frames = 0
    let error = #expect(throws: RecordingError.self) {
      let reader = try EvemuReader(path: path)
      while try reader.nextFrame() != nil { frames += 1 }
    }
    try? FileManager.default.removeItem(atPath: path)
    #expect(error?.kind == .truncated)
    #expect(error?.line == lastLine)
    #expect(frames == 0)
  }
}
