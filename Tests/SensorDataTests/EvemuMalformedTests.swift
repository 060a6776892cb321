import Foundation
import TestTools
import Testing

@testable import SensorData

/// Bad evemu input: each case must give a `RecordingError` that names the
/// line and says what is wrong, never a crash or a hang.
@Suite struct EvemuMalformedTests {
  static let header = "N: T\nI: 0003 0000 0000 0000\n"

  typealias Case = BadInput

  static let cases: [Case] = [
    Case(name: "empty", text: "", kind: .empty, line: 0, message: "empty file"),
    Case(name: "blank lines only", text: "\n \n\t\n", kind: .empty, line: 0, message: "empty file"),
    Case(
      name: "comments only", text: "# EVEMU 1.3\n# nothing\n", kind: .header, line: 3,
      message: "expected 'N: device name'"),
    Case(
      name: "garbage first line", text: "hello world\nN: T\n", kind: .header, line: 1,
      message: "no evemu header"),
    Case(
      name: "no I: line", text: "N: T\nP: 00 00 00 00 00 00 00 00\n", kind: .header, line: 2,
      message: "I: bustype"),
    Case(
      name: "truncated I: line", text: "N: T\nI: 0003 0000\n", kind: .truncated, line: 2,
      message: "truncated I: line: 2 of 4"),
    Case(
      name: "non-hex I:", text: "N: T\nI: 0003 zzzz 0000 0000\n", kind: .notANumber, line: 2,
      message: "'zzzz' in the I: line is not a hex number"),
    Case(
      name: "I: too big", text: "N: T\nI: 10003 0000 0000 0000\n", kind: .outOfRange, line: 2,
      message: "larger than 0xffff"),
    Case(
      name: "truncated B:", text: header + "B: 03 07 00\n", kind: .truncated, line: 3,
      message: "truncated B: line"),
    Case(
      name: "B: type too big", text: header + "B: 40 00 00 00 00 00 00 00 00\n", kind: .outOfRange,
      line: 3, message: "B: event type 0x40 is out of range"),
    Case(
      name: "A: axis too big", text: header + "A: 40 0 1 0 0\n", kind: .outOfRange, line: 3,
      message: "A: axis 0x40 is out of range"),
    Case(
      name: "A: short", text: header + "A: 00 0 1\n", kind: .truncated, line: 3,
      message: "truncated A: line: 3 of 5"),
    Case(
      name: "A: minimum not a number", text: header + "A: 00 x 1 0 0\n", kind: .notANumber, line: 3,
      message: "'x' in the A: line is not a decimal number"),
    Case(
      name: "A: beyond Int32", text: header + "A: 00 0 4294967296 0 0\n", kind: .outOfRange,
      line: 3,
      message: "outside the 32-bit range"),
    Case(
      name: "unknown header line", text: header + "Q: 1 2 3\n", kind: .header, line: 3,
      message: "expected a P:, B:, A:, L:, S: or E: line"),
    Case(
      name: "truncated event", text: header + "E: 0.000001 0003\n", kind: .truncated, line: 3,
      message: "truncated event line: no event code"),
    Case(
      name: "event time cut", text: header + "E: 0.\n", kind: .truncated, line: 3,
      message: "truncated event line: no microseconds"),
    Case(
      name: "event without value",
      text: header + "E: 0.000001 0003 0000 1\nE: 0.000002 0000 0000\n", kind: .truncated, line: 4,
      message: "no event value"),
    Case(
      name: "event value not a number", text: header + "E: 0.000001 0003 0000 abc\n",
      kind: .notANumber, line: 3, message: "'abc' is not a valid event value"),
    Case(
      name: "event time not a number", text: header + "E: x.000001 0003 0000 1\n",
      kind: .notANumber, line: 3, message: "'x.000001' is not a valid time in seconds"),
    Case(
      name: "event type too big", text: header + "E: 0.000001 0020 0000 1\n", kind: .outOfRange,
      line: 3, message: "event type 0x20 is out of range"),
    Case(
      name: "event code too big", text: header + "E: 0.000001 0003 0040 1\n", kind: .outOfRange,
      line: 3, message: "event code 0x40 is out of range for type 0x3"),
    Case(
      name: "event value too big", text: header + "E: 0.000001 0003 0000 2147483648\n",
      kind: .outOfRange, line: 3, message: "outside the 32-bit range"),
    Case(
      name: "event value far too big",
      text: header + "E: 0.000001 0003 0000 99999999999999999999999\n",
      kind: .outOfRange, line: 3, message: "outside the 32-bit range"),
    Case(
      name: "event time too big", text: header + "E: 1234567890123456789012.000001 0003 0000 1\n",
      kind: .outOfRange, line: 3, message: "event time is out of range"),
    Case(
      name: "event time beyond microseconds in 64 bits",
      text: header + "E: 999999999999999999.000001 0003 0000 1\n", kind: .outOfRange, line: 3,
      message: "event time 999999999999999999 s is out of range"),
    Case(
      name: "seven-digit microseconds", text: header + "E: 0.1234567 0003 0000 1\n",
      kind: .notANumber, line: 3, message: "microseconds (1 to 6 digits)"),
    Case(
      name: "garbage among events",
      text: header + "E: 0.000001 0003 0000 1\nthis is not an event\n", kind: .garbled, line: 4,
      message: "expected an event line"),
    Case(
      name: "second description", text: header + "E: 0.000001 0000 0000 0\nN: Again\n",
      kind: .garbled, line: 4, message: "expected an event line"),
  ]

  @Test(arguments: cases)
  func malformedInputGivesAClearError(_ c: Case) throws {
    let path = TestData.file(c.text)
    let error = #expect(throws: RecordingError.self) {
      let reader = try EvemuReader(path: path)
      while try reader.nextFrame() != nil {}
    }
    #expect(error?.kind == c.kind)
    #expect(error?.line == c.line)
    #expect(error?.file == path)
    #expect(error?.message.contains(c.message) == true, "\(error?.description ?? "nil")")
    #expect(error?.description.hasPrefix(c.line > 0 ? "\(path):\(c.line): " : "\(path): ") == true)
  }

  @Test func binaryBytesInTheHeader() throws {
    let path = TestData.file(bytes: Array("N: T\nI: 0003 0000 0000 0000\nB: \u{0}\u{1}\n".utf8))
    let error = #expect(throws: RecordingError.self) { _ = try EvemuReader(path: path) }
    #expect(error?.kind == .binary)
    #expect(
      error?.description
        == "\(path):3: not an evemu recording (binary data at line 3); "
        + RecordingError.giveARecording)
  }

  @Test func invalidUTF8IsBinary() throws {
    let path = TestData.file(bytes: [0xFF, 0xFE, 0x4E, 0x3A, 0x0A])
    let error = #expect(throws: RecordingError.self) { _ = try EvemuReader(path: path) }
    #expect(error?.kind == .binary)
    #expect(error?.line == 1)
  }

  @Test func binaryBytesAmongEvents() throws {
    let path = TestData.file(
      bytes: Array((Self.header + "E: 0.000001 0000 0000 0\n").utf8) + [
        0x45, 0x3A, 0x00, 0x01, 0x0A,
      ])
    let error = #expect(throws: RecordingError.self) {
      let reader = try EvemuReader(path: path)
      while try reader.nextFrame() != nil {}
    }
    #expect(error?.kind == .binary)
    #expect(error?.line == 4)
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/zero"), "needs /dev/zero"))
  func devZeroDoesNotHang() throws {
    let error = #expect(throws: RecordingError.self) { _ = try EvemuReader(path: "/dev/zero") }
    #expect(error?.kind == .binary)
    #expect(error?.description.contains("not an evemu recording (binary data at line 1)") == true)
  }

  @Test func aDirectory() throws {
    let dir = TestData.scratchDirectory()
    let error = #expect(throws: RecordingError.self) { _ = try EvemuReader(path: dir) }
    #expect(error?.kind == .directory)
    #expect(error?.description == "\(dir): is a directory; give a recording file inside it")
  }

  @Test func aMissingFile() throws {
    let path = TestData.scratchDirectory() + "/absent.evemu"
    let error = #expect(throws: RecordingError.self) { _ = try EvemuReader(path: path) }
    #expect(error?.kind == .unreadable)
    #expect(error?.description.contains("No such file or directory") == true)
  }

  // Root reads any file: the permission check needs another user.
  @Test(.disabled(if: getuid() == 0, "running as root, file permissions do not apply"))
  func anUnreadableFile() throws {
    let path = TestData.file("N: T\n")
    chmod(path, 0)
    let error = #expect(throws: RecordingError.self) { _ = try EvemuReader(path: path) }
    #expect(error?.kind == .unreadable)
  }

  @Test func aVeryLongLineIsRefusedNotBuffered() throws {
    let path = TestData.file(Self.header + "# " + String(repeating: "x", count: 200_000) + "\n")
    let error = #expect(throws: RecordingError.self) {
      let reader = try EvemuReader(path: path)
      while try reader.nextFrame() != nil {}
    }
    #expect(error?.kind == .garbled)
    #expect(error?.line == 3)
  }
}
