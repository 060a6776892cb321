import Foundation
import Motion
import Testing

// The examples of Motion's catalog (Sources/Motion/Motion.docc), compiled:
// never called, they fail the build when the API they show changes.

func handlerExample() throws {
  let manager = DeviceMotionManager(.device(path: nil))  // the first motion device
  guard manager.isDeviceMotionAvailable else { fatalError("no motion device") }
  manager.deviceMotionUpdateInterval = 0.1  // seconds of sample time; 0: every sample
  try manager.startDeviceMotionUpdates { motion in
    print(motion.attitude.pitch, motion.attitude.roll)  // radians
  }
  try manager.run()  // the loop, on this thread, until SIGINT or SIGTERM
}

func namedDeviceExample() throws {
  let manager = DeviceMotionManager(.device(path: "/dev/input/event7"))
  manager.deviceMotionUpdateInterval = 1.0 / 60
  try manager.startDeviceMotionUpdates { motion in
    let gravity = motion.gravity  // g, device frame
    print(gravity.x, gravity.y, gravity.z)
  }
  try manager.run()
}

func concurrencyExample() async throws {
  var manager = AsyncMotionManager(.recording(path: "recordings/demo.evemu", speed: 1))
  manager.deviceMotionUpdateInterval = 0.1
  for try await motion in manager.updates() {
    print(motion.attitude.pitch * 180 / .pi, motion.attitude.roll * 180 / .pi)
  }
}

@Suite struct DocExamplesTests {
  /// Every Swift example of the catalog is one of the functions above, line
  /// for line (after `import Motion`), so what the docs show is what compiles.
  @Test func theCatalogsExamplesAreTheCompiledOnes() throws {
    let here = URL(fileURLWithPath: #filePath)
    let catalog = here.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/Motion/Motion.docc")
    let compiled = Set(
      try String(contentsOf: here, encoding: .utf8).split(separator: "\n")
        .map { $0.trimmingCharacters(in: .whitespaces) })
    let pages = try FileManager.default.contentsOfDirectory(atPath: catalog.path)
      .filter { $0.hasSuffix(".md") }
    var examples = 0
    for page in pages {
      let text = try String(contentsOf: catalog.appendingPathComponent(page), encoding: .utf8)
      for (index, block) in text.components(separatedBy: "```swift\n").dropFirst().enumerated() {
        examples += 1
        let code = block.components(separatedBy: "```").first ?? ""
        for line in code.split(separator: "\n") {
          let trimmed = line.trimmingCharacters(in: .whitespaces)
          guard !trimmed.isEmpty, trimmed != "import Motion" else { continue }
          let compiles = compiled.contains(trimmed)
          #expect(
            compiles,
            "\(page), example \(index + 1): \"\(trimmed)\" is not in DocExamplesTests.swift")
        }
      }
    }
    #expect(examples >= 3, "found \(examples) Swift examples in \(catalog.path)")
  }
}
