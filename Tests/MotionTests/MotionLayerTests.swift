import Foundation
import TestTools
import Testing

/// The Motion library stands without the card: its targets hold no TiltCard,
/// and the async example uses it alone.
@Suite struct MotionLayerTests {
  /// `relative` in the package.
  static func path(_ relative: String) -> String {
    TestTools.packageRoot.appendingPathComponent(relative).path
  }

  /// `swift package describe --type json` of the package at `path`, in a
  /// scratch directory of its own (the test run holds the package's `.build`).
  static func describe(_ path: String) throws -> [String: Any] {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("tilt-describe-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "swift", "package", "--package-path", path, "--scratch-path", scratch.path, "describe",
      "--type", "json",
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "swift package describe \(path) failed")
    return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
  }

  /// Every target that `name` depends on, directly or through others.
  static func targetGraph(of name: String, in package: [String: Any]) -> Set<String> {
    let targets = package["targets"] as? [[String: Any]] ?? []
    var dependencies: [String: [String]] = [:]
    for target in targets {
      if let name = target["name"] as? String {
        dependencies[name] = target["target_dependencies"] as? [String] ?? []
      }
    }
    var seen: Set<String> = []
    var toVisit = [name]
    while let next = toVisit.popLast() {
      guard seen.insert(next).inserted else { continue }
      toVisit += dependencies[next] ?? []
    }
    return seen
  }

  @Test func theMotionProductLinksNoCard() throws {
    let package = try Self.describe(Self.path(""))
    let products = package["products"] as? [[String: Any]] ?? []
    let motion = try #require(products.first { $0["name"] as? String == "Motion" })
    #expect(motion["targets"] as? [String] == ["Motion"])
    let graph = Self.targetGraph(of: "Motion", in: package)
    #expect(graph.contains("Evdev") && graph.contains("Attitude"))
    #expect(!graph.contains("TiltCard"), "Motion's targets: \(graph.sorted())")
    #expect(!graph.contains("CardServer") && !graph.contains("Tilt"))
    // The card stands on Motion, not beside it.
    #expect(Self.targetGraph(of: "Tilt", in: package).contains("Motion"))
  }

  /// `Examples/AsyncTilt` depends on the Motion product and imports nothing
  /// else of tilt (CLITests' AsyncTiltExampleTests builds and runs it).
  @Test func theAsyncExampleUsesMotionAlone() throws {
    let example = Self.path("Examples/AsyncTilt")
    let package = try Self.describe(example)
    let targets = package["targets"] as? [[String: Any]] ?? []
    let app = try #require(targets.first { $0["name"] as? String == "AsyncTilt" })
    #expect(app["product_dependencies"] as? [String] == ["Motion"])
    let main = try String(
      contentsOfFile: example + "/Sources/AsyncTilt/main.swift", encoding: .utf8)
    let imports = main.split(separator: "\n").filter { $0.hasPrefix("import ") }
    #expect(imports == ["import Foundation", "import Motion"])
  }

  /// `import Motion` (or Tilt) gives an app the loop and its clock, not the
  /// system-call layer: the only re-exports on that path are PollLoop, its
  /// clock type, and Motion from Tilt.
  @Test func noReExportOfTheSystemCallLayer() throws {
    var exported: [String] = []
    for target in ["Motion", "PollLoop", "Tilt"] {
      let directory = Self.path("Sources/" + target)
      for file in try FileManager.default.contentsOfDirectory(atPath: directory)
      where file.hasSuffix(".swift") {
        let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
        exported += text.split(separator: "\n").filter { $0.hasPrefix("@_exported") }
          .map { "\(target): \($0)" }
      }
    }
    #expect(
      exported.sorted() == [
        "Motion: @_exported import PollLoop",
        "PollLoop: @_exported import struct SystemCalls.MonotonicInstant",
        "Tilt: @_exported import Motion",
      ], "\(exported)")
  }
}
