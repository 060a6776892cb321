import Foundation
import Testing
import Tilt
import TiltCard

/// The sinks `tilt-cli` writes with, used from the library: the JSON lines
/// file is the golden one, the page is one self-contained document, and a
/// file that cannot be written is named.
@Suite struct FileSinkTests {
  static func play(_ file: String, into sink: FrameSink) throws {
    let configuration = TiltConfiguration()
    let source = try Recording.open(
      path: PipelineTests.path(file), configuration: configuration)
    let pipeline = TiltPipeline(
      configuration: configuration, hasGyroscope: source.capabilities.hasGyroscope,
      buttons: source.capabilities.keyCodes,
      sink: sink)
    try TiltTests.play(source, through: pipeline, speed: nil)
  }

  static func temporary(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-file-sink-\(getpid())-\(name)"
    ).path
  }

  @Test func jsonlFileHoldsTheGoldenFrames() throws {
    let path = Self.temporary("demo.jsonl")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Self.play("recordings/demo.evemu", into: try JSONLSink(path: path))
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(written == (try PipelineTests.golden("demo.jsonl")))
  }

  @Test func htmlFileIsOnePage() throws {
    let path = Self.temporary("demo.html")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let renderer = HTMLRenderer(configuration: CardConfiguration(), title: "demo")
    try Self.play("recordings/demo.evemu", into: HTMLSink(renderer: renderer, path: path))
    let page = try String(contentsOfFile: path, encoding: .utf8)
    #expect(page.lowercased().hasPrefix("<!doctype html>"))
    #expect(page.contains("<title>demo</title>"))
  }

  @Test func anUnwritableFileIsNamed() {
    let path = "/nonexistent-tilt-directory/frames.jsonl"
    #expect(throws: OutputError.self) { try JSONLSink(path: path) }
    do {
      _ = try JSONLSink(path: path)
    } catch {
      #expect("\(error)" == "\(path): cannot write the output: No such file or directory")
    }
  }
}
