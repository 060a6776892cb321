import Foundation
import TestTools
import Testing

@testable import SensorData

@Suite struct EvemuWriterTests {
  static let info = FakeDevices.dualSense

  /// Frames with absolute kernel times, as a live device gives them.
  static func frames() -> [Frame] {
    var b = FrameBuilder(micros: 1_700_000_000_123_456)
    var frames: [Frame] = []
    for i in 0..<50 {
      frames.append(
        b.frame(
          after: 4000 + Int64(i % 3),
          [
            (EventType.abs, 0, Int32(i * 7 - 100)), (EventType.abs, 4, -Int32(i)),
            (
              EventType.msc, MscCode.timestamp,
              Int32(bitPattern: (UInt32.max - 100_000) &+ UInt32(i) * 4000)
            ),
          ]))
    }
    frames.append(b.frame([(EventType.abs, 2, Int32.min)]))
    frames.append(b.frame([(EventType.abs, 2, Int32.max)]))
    return frames
  }

  @Test func roundTripGivesTheSameEventsAndTimes() throws {
    let path = TestData.scratchDirectory() + "/out.evemu"
    let writer = try EvemuWriter(path: path, info: Self.info)
    let frames = Self.frames()
    for frame in frames { try writer.write(frame) }
    #expect(!FileManager.default.fileExists(atPath: path))
    try writer.finish()
    #expect(writer.eventCount == frames.reduce(0) { $0 + $1.events.count })

    let reader = try EvemuReader(path: path)
    #expect(reader.info.name == Self.info.name)
    #expect(reader.info.id == Self.info.id)
    #expect(reader.info.properties == Self.info.properties)
    #expect(reader.info.absInfo == Self.info.absInfo)
    #expect(reader.info.codes[EventType.abs] == Self.info.codes[EventType.abs])
    #expect(reader.info.codes[EventType.msc] == Self.info.codes[EventType.msc])
    #expect(reader.formatVersion == (1, 3))
    let back = try reader.allFrames()
    #expect(back.count == frames.count)
    // Times are relative to the first event, which is written at 0.000001 s.
    let offset = frames[0].events[0].time.totalMicroseconds - 1
    for (a, b) in zip(frames, back) {
      #expect(a.events.count == b.events.count)
      for (x, y) in zip(a.events, b.events) {
        #expect(x.type == y.type && x.code == y.code && x.value == y.value)
        #expect(x.time.totalMicroseconds - offset == y.time.totalMicroseconds)
      }
    }
  }

  @Test func linesLookLikeEvemuRecord() throws {
    let path = TestData.scratchDirectory() + "/look.evemu"
    let writer = try EvemuWriter(path: path, info: FakeDevices.xboxPad, comments: [])
    var b = FrameBuilder(micros: 5_000_000)
    try writer.write(b.frame(after: 0, [(EventType.abs, 1, -27)]))
    try writer.write(b.frame(after: 16_000, [(EventType.key, ButtonCode.east, 1)]))
    try writer.finish()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines[0] == "# EVEMU 1.3")
    #expect(lines[1] == "# Input device name: \"Microsoft X-Box 360 pad\"")
    #expect(lines[2] == "# Input device ID: bus 0x03 vendor 0x45e product 0x28e version 0x114")
    #expect(lines.contains("N: Microsoft X-Box 360 pad"))
    #expect(lines.contains("I: 0003 045e 028e 0114"))
    #expect(lines.contains("P: 00 00 00 00 00 00 00 00"))
    #expect(lines.contains("B: 00 0b 00 00 00 00 00 00 00"))
    #expect(lines.contains("B: 03 3f 00 03 00 00 00 00 00"))
    #expect(lines.filter { $0.hasPrefix("B: 01 ") }.count == 12)
    #expect(lines.filter { $0.hasPrefix("B: 15 ") }.count == 2)
    #expect(lines.contains("A: 00 -32768 32767 0 128 0"))
    #expect(lines.contains("#       Min     -32768"))
    #expect(lines.contains("E: 0.000001 0003 0001 -027\t# EV_ABS / ABS_Y                -27"))
    #expect(
      lines.contains("E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms"))
    #expect(lines.contains("E: 0.016001 0001 0131 0001\t# EV_KEY / BTN_EAST             1"))
    #expect(
      lines.contains("E: 0.016001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +16ms"))
  }

  @Test func abandonLeavesNothing() throws {
    let dir = TestData.scratchDirectory()
    let path = dir + "/gone.evemu"
    let writer = try EvemuWriter(path: path, info: Self.info)
    try writer.write(Self.frames()[0])
    writer.abandon()
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
  }

  @Test func droppingAnUnfinishedWriterRemovesItsTemporaryFile() throws {
    let dir = TestData.scratchDirectory()
    do { _ = try EvemuWriter(path: dir + "/x.evemu", info: Self.info) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
  }

  @Test func temporaryFileIsHiddenNextToTheTarget() throws {
    let dir = TestData.scratchDirectory()
    let writer = try EvemuWriter(path: dir + "/rec.evemu", info: Self.info)
    let names = try FileManager.default.contentsOfDirectory(atPath: dir)
    #expect(names.count == 1)
    #expect(names[0].hasPrefix(".rec.evemu."))
    try writer.finish()
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["rec.evemu"])
  }

  @Test func unwritableDirectoryIsAClearError() {
    let error = #expect(throws: RecordingWriteError.self) {
      _ = try EvemuWriter(path: "/nonexistent-dir-for-tilt/x.evemu", info: Self.info)
    }
    #expect(error?.description.contains("No such file or directory") == true)
    #expect(
      error?.description.contains("nothing was written under /nonexistent-dir-for-tilt/x.evemu")
        == true)
  }

  @Test func diskFullMessage() {
    let error = RecordingWriteError(path: "out.evemu", code: ENOSPC, doing: "write")
    #expect(
      error.description == "no space left writing out.evemu; nothing was written under out.evemu")
  }

  /// libevemu's own parser reads what the writer wrote: the same description
  /// and the same events.
  @Test(.needs(.cc), .needs(.evemu)) func libevemuParsesTheOutput() throws {
    let checker = try LibevemuChecker.build()
    let path = TestData.scratchDirectory() + "/c.evemu"
    let writer = try EvemuWriter(path: path, info: Self.info)
    for frame in Self.frames() { try writer.write(frame) }
    try writer.finish()
    #expect(try checker.run(path) == LibevemuChecker.expectedOutput(path))
  }
}

/// A tiny C program linked against libevemu that prints what `evemu_read`
/// and `evemu_read_event` make of a file.
struct LibevemuChecker {
  let binary: String

  static let source = #"""
    #include <evemu.h>
    #include <stdio.h>
    int main(int argc, char **argv) {
      FILE *fp = fopen(argv[1], "r");
      if (!fp) return 2;
      struct evemu_device *dev = evemu_new(NULL);
      if (evemu_read(dev, fp) <= 0) { fprintf(stderr, "evemu_read failed\n"); return 3; }
      printf("name %s\n", evemu_get_name(dev));
      printf("id %04x %04x %04x %04x\n", evemu_get_id_bustype(dev), evemu_get_id_vendor(dev),
             evemu_get_id_product(dev), evemu_get_id_version(dev));
      for (int c = 0; c < ABS_CNT; c++)
        if (evemu_has_event(dev, EV_ABS, c))
          printf("abs %d %d %d %d %d %d\n", c, evemu_get_abs_minimum(dev, c),
                 evemu_get_abs_maximum(dev, c), evemu_get_abs_fuzz(dev, c),
                 evemu_get_abs_flat(dev, c), evemu_get_abs_resolution(dev, c));
      for (int p = 0; p < INPUT_PROP_CNT; p++)
        if (evemu_has_prop(dev, p)) printf("prop %d\n", p);
      struct input_event ev;
      int rc;
      while ((rc = evemu_read_event(fp, &ev)) > 0)
        printf("E %ld.%ld %d %d %d\n", (long)ev.input_event_sec, (long)ev.input_event_usec,
               ev.type, ev.code, ev.value);
      return rc < 0 ? 4 : 0;
    }
    """#

  /// Compiles the checker, in a test with `.needs(.cc)` and `.needs(.evemu)`;
  /// throws when either is missing or the checker does not compile.
  static func build() throws -> LibevemuChecker {
    try Header.evemu.require()
    let compiler = try Tool.cc.require()
    let dir = TestData.scratchDirectory()
    let source = dir + "/check.c"
    let binary = dir + "/check"
    try? Self.source.write(toFile: source, atomically: true, encoding: .utf8)
    let cc = Process()
    cc.executableURL = URL(fileURLWithPath: compiler)
    cc.arguments = ["-o", binary, source, "-levemu"]
    try cc.run()
    cc.waitUntilExit()
    try #require(cc.terminationStatus == 0, "the libevemu checker did not compile (\(source))")
    return LibevemuChecker(binary: binary)
  }

  /// What the checker prints for `path`, computed with ``EvemuReader``.
  static func expectedOutput(_ path: String) throws -> String {
    let reader = try EvemuReader(path: path)
    let id = reader.info.id
    var expected = "name \(reader.info.name)\n"
    expected += String(
      format: "id %04x %04x %04x %04x\n", id.bustype, id.vendor, id.product, id.version)
    for code in reader.info.absInfo.keys.sorted() {
      let a = reader.info.absInfo[code]!
      expected += "abs \(code) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
    }
    for p in reader.info.properties.sorted() { expected += "prop \(p)\n" }
    while let frame = try reader.nextFrame() {
      for e in frame.events {
        expected += "E \(e.time.seconds).\(e.time.microseconds) \(e.type) \(e.code) \(e.value)\n"
      }
    }
    return expected
  }

  func run(_ path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = [path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: data, as: UTF8.self)
  }
}
