import Foundation
import TestTools
import Testing

@testable import SensorData

/// Issue 20's crafted recordings and issue 22's late checks, at the readers:
/// every parser bound (header line counts, frames without `SYN_REPORT`), a
/// file checked before its first frame, and names that `record` writes so
/// that the file stays one header line per field.
@Suite struct HostileRecordingTests {
  static let header = "N: T\nI: 0003 0000 0000 0000\n"

  /// 1 025 `P:` lines: the 1 025th overflowed the UInt16 property number
  /// (offset 8 192 bytes × 8 bits) and trapped. `B:` lines were capped at 16
  /// a type, `P:` lines were not. Now the 17th `P:` line is refused, as the
  /// 17th `B:` line of a type is.
  @Test func thousandsOfPropertyLinesAreRefusedNotATrap() throws {
    let properties = String(repeating: "P: 00 00 00 00 00 00 00 00\n", count: 1025)
    let path = TestData.file(Self.header + properties + "E: 0.000001 0000 0000 0\n")
    let error = #expect(throws: RecordingError.self) { _ = try EvemuReader(path: path) }
    #expect(error?.kind == .outOfRange)
    #expect(error?.line == 3 + 16)
    #expect(
      error?.message.hasPrefix("too many P: lines (more than 16)") == true,
      "\(String(describing: error))")
  }

  /// Sixteen `P:` lines, as many as `B:` lines a type, are still read.
  @Test func sixteenPropertyLinesAreRead() throws {
    let properties =
      String(repeating: "P: 00 00 00 00 00 00 00 00\n", count: 15)
      + "P: 00 00 00 00 00 00 00 80\n"
    let path = TestData.file(Self.header + properties + "E: 0.000001 0000 0000 0\n")
    let reader = try EvemuReader(path: path)
    #expect(reader.info.properties.sorted() == [UInt16(15 * 64 + 63)])
  }

  /// 10 000 events without a `SYN_REPORT` used to make one frame of 10 000
  /// (3 million: 120 MiB). Now frames hold at most
  /// ``EvemuReader/maximumFrameEvents``, and the check says where the first
  /// cut is and how many there are.
  @Test func aFrameThatNeverEndsIsCutAndSaid() throws {
    let events = String(repeating: "E: 0.000001 0003 0000 1\n", count: 10_000)
    let path = TestData.file(Self.header + events + "E: 0.000002 0000 0000 0\n")
    let reader = try EvemuReader(path: path)
    let frames = try reader.allFrames()
    let cap = EvemuReader.maximumFrameEvents
    #expect(frames.map(\.events.count) == [cap, cap, 10_001 - 2 * cap])
    #expect(reader.check.frames == frames.count)
    #expect(reader.check.events == 10_001)
    let note = try #require(reader.check.notes.first)
    #expect(note.kind == .frameTooLong)
    #expect(note.line == 2 + cap)
    #expect(
      note.description.hasPrefix(
        "\(path):\(2 + cap): \(cap) events without a SYN_REPORT, more than any device puts in one frame"
      ))
    #expect(note.message.contains("(2 such cuts in the file)"))
    #expect(reader.check.notes.count == 1)
  }

  /// A recording cut at a line boundary: the last frame has no `SYN_REPORT`.
  /// It was played silently; now the check says so with its lines.
  @Test func aLastFrameWithoutSynReportIsSaid() throws {
    let path = TestData.file(
      Self.header + "E: 0.000001 0003 0000 1\nE: 0.000001 0000 0000 0\n"
        + "E: 0.010000 0003 0000 2\nE: 0.010000 0003 0001 3\n")
    let reader = try EvemuReader(path: path)
    #expect(reader.check.isChecked)
    #expect(reader.check.frames == 2)
    #expect(reader.check.duration == 0.009999)
    #expect(
      reader.check.notes.map(\.description) == [
        "\(path):6: the last frame (lines 5–6, 2 events) is not closed by SYN_REPORT: the"
          + " recording was cut short; that frame is played as it is"
      ])
    // It is still played, as before: the reader's contract is unchanged.
    #expect(try reader.allFrames().map(\.events.count) == [2, 2])
  }

  /// A file that ends with its `SYN_REPORT` has nothing to say.
  @Test func aWholeRecordingHasNoNotes() throws {
    let path = TestData.file(
      Self.header + "E: 0.000001 0003 0000 1\nE: 0.000001 0000 0000 0\n")
    let reader = try EvemuReader(path: path)
    #expect(reader.check.isChecked)
    #expect(reader.check.notes.isEmpty)
    #expect(reader.check.frames == 1)
  }

  /// A line cut short in the middle of a file is an error when the file is
  /// opened, before any frame (it was one after every frame before it had
  /// been played: 4.6 s into a replay of the demo).
  @Test func aTruncatedLineIsAnErrorBeforeTheFirstFrame() throws {
    let good = String(repeating: "E: 0.000001 0003 0000 1\nE: 0.000001 0000 0000 0\n", count: 500)
    let path = TestData.file(Self.header + good + "E: 0.5 0003\n" + good)
    let error = #expect(throws: RecordingError.self) { _ = try EvemuReader(path: path) }
    #expect(error?.kind == .truncated)
    #expect(error?.line == 2 + 1000 + 1)
  }

  /// The same for a CSV log: a bad row anywhere is thrown by `init`.
  @Test func aBadCSVRowIsAnErrorBeforeTheFirstRow() throws {
    let good = String(repeating: "0.5,0,0,1\n", count: 200)
    let path = TestData.file(
      "t_s,acc_x_g,acc_y_g,acc_z_g\n" + good + "0.6,0,0\n" + good, name: "cut.csv")
    let error = #expect(throws: RecordingError.self) { _ = try CSVMotionReader(path: path) }
    #expect(error?.kind == .truncated)
    #expect(error?.line == 202)
  }

  /// After the check the rows are read from the first one again.
  @Test func aCheckedCSVLogIsReadFromItsFirstRow() throws {
    let path = TestData.file(
      "# a comment\nt_s,acc_x_g,acc_y_g,acc_z_g\n1.0,0,0,1\n1.5,0,1,0\n", name: "ok.csv")
    let reader = try CSVMotionReader(path: path)
    #expect(reader.check.isChecked)
    #expect(reader.check.events == 2)
    #expect(reader.check.duration == 0.5)
    #expect(try reader.nextSample()?.time == 0)
    #expect(try reader.nextSample()?.acceleration == SIMD3(0, 1, 0))
    #expect(try reader.nextSample() == nil)
  }

  /// A pipe cannot be read twice: it is read as it comes, unchecked, and
  /// still played.
  @Test func aPipeIsReadAsItComes() throws {
    var fds: [Int32] = [0, 0]
    try #require(pipe(&fds) == 0)
    let text = Self.header + "E: 0.000001 0003 0000 1\nE: 0.000001 0000 0000 0\n"
    _ = text.withCString { write(fds[1], $0, strlen($0)) }
    close(fds[1])
    defer { close(fds[0]) }
    let reader = try EvemuReader(path: "/proc/self/fd/\(fds[0])")
    #expect(!reader.check.isChecked)
    #expect(try reader.allFrames().count == 1)
  }

  /// A device name with a newline and escape sequences (any user with
  /// /dev/uinput picks one): `record` wrote it raw, so the newline injected
  /// header lines. Now the file has one `N:` line, and the name reads back
  /// with its control characters spelled as escapes.
  @Test func aNameWithANewlineStaysOneHeaderLine() throws {
    var info = DeviceInfo(name: "pad\nB: 01 ff ff ff ff ff ff ff ff\n\u{1B}]0;owned\u{07}\r\u{9B}x")
    info.id = DeviceID(bustype: 3, vendor: 1, product: 2, version: 3)
    let path = TestData.scratchDirectory() + "/name.evemu"
    let writer = try EvemuWriter(path: path, info: info, comments: ["Kernel: 6.1\n# forged"])
    try writer.finish()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("N:") }.count == 1)
    #expect(lines.filter { $0.hasPrefix("B: 01") }.count == 12, "only the writer's own B: 01 lines")
    #expect(!text.utf8.contains(0x1B) && !text.utf8.contains(0x07) && !text.utf8.contains(0x0D))
    let expected = "pad\\nB: 01 ff ff ff ff ff ff ff ff\\n\\e]0;owned\\x07\\r\\u{9B}x"
    #expect(lines.contains("N: \(expected)"))
    #expect(lines.contains("# Kernel: 6.1\\n# forged"))
    let reader = try EvemuReader(path: path)
    #expect(reader.info.name == expected)
    #expect((reader.info.codes[EventType.key] ?? []).isEmpty)
  }

  /// libevemu (what evemu-play reads with) takes the escaped name as it is.
  @Test(.needs(.cc), .needs(.evemu)) func libevemuReadsTheEscapedName() throws {
    let checker = try LibevemuChecker.build()
    var info = EvemuWriterTests.info
    info.name = "evil\n\u{1B}[31mred"
    let path = TestData.scratchDirectory() + "/evil.evemu"
    let writer = try EvemuWriter(path: path, info: info)
    for frame in EvemuWriterTests.frames() { try writer.write(frame) }
    try writer.finish()
    let output = try checker.run(path)
    #expect(output.hasPrefix("name evil\\n\\e[31mred\n"), "\(output)")
    #expect(output == (try LibevemuChecker.expectedOutput(path)))
  }
}
