import Foundation
import TestTools
import Testing

/// A long recording is read in flat memory, measured on the binary's own
/// peak resident set (not this test process's, which other tests share).
@Suite struct StreamingMemoryTests {
  /// A recording of `frames` one-axis frames after the demo's device header,
  /// ending in a truncated line.
  static func recording(frames: Int, name: String) throws -> URL {
    let demo = try String(
      contentsOf: TiltCLI.packageRoot.appendingPathComponent("recordings/demo.evemu"),
      encoding: .utf8)
    let header = demo.split(separator: "\n", omittingEmptySubsequences: false)
      .prefix { !$0.hasPrefix("E:") }.joined(separator: "\n")
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-\(name)-\(getpid()).evemu")
    _ = FileManager.default.createFile(atPath: url.path, contents: Data((header + "\n").utf8))
    let handle = try FileHandle(forWritingTo: url)
    handle.seekToEndOfFile()
    let frame = "E: 12.345678 0003 0000 -12345\nE: 12.345678 0000 0000 0000\n"
    let chunk = Data(String(repeating: frame, count: 8192).utf8)
    for _ in 0..<(frames / 8192) { handle.write(chunk) }
    handle.write(Data(String(repeating: frame, count: frames % 8192).utf8))
    handle.write(Data("E: 12.345678 0003".utf8))
    handle.closeFile()
    return url
  }

  /// `tilt-cli info FILE`'s peak resident set in bytes, and what it said.
  static func peakResident(info file: URL) throws -> (bytes: Int, stderr: String) {
    let python = try Tool.python3.require()
    let measure = """
      import resource, subprocess, sys
      r = subprocess.run(sys.argv[1:], capture_output=True, text=True)
      sys.stderr.write(r.stderr)
      print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
      """
    let r = try TiltCLI.runTool(python, ["-c", measure, TiltCLI.binary.path, "info", file.path])
    let kilobytes = Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    return (kilobytes * 1024, r.stderr)
  }

  @Test(.needs(.python3)) func aLongRecordingIsReadInFlatMemoryToItsError() throws {
    let frames = 72 * 8192  // 34 MB of text
    let long = try Self.recording(frames: frames, name: "long")
    let short = try Self.recording(frames: 100, name: "short")
    defer {
      try? FileManager.default.removeItem(at: long)
      try? FileManager.default.removeItem(at: short)
    }
    let size = (try FileManager.default.attributesOfItem(atPath: long.path)[.size] as? Int) ?? 0
    #expect(size > 32 << 20)
    let big = try Self.peakResident(info: long)
    let small = try Self.peakResident(info: short)
    // Read to the end: the error names the truncated last line.
    let headerLines =
      try String(contentsOf: short, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).count - 100 * 2 - 1
    #expect(
      big.stderr.contains("\(long.path):\(headerLines + frames * 2 + 1): truncated event line"))
    #expect(small.bytes > 0)
    let grown = big.bytes - small.bytes
    #expect(grown < 8 << 20, "peak memory grew by \(grown >> 20) MB for a \(size >> 20) MB file")
  }
}
