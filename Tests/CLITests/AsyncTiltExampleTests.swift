import Foundation
import Testing

/// `Examples/AsyncTilt`, an app that reads live pitch and roll with
/// `for try await` through the Tilt library product, by relative path:
/// it builds, stays under 20 lines of code, and says what is wrong with a
/// device it cannot open (a live device is not there to read here).
@Suite(.serialized) struct AsyncTiltExampleTests {
  static let example = TiltCLI.packageRoot.appendingPathComponent("Examples/AsyncTilt")

  /// Built once, from clean, in a scratch directory of its own (as
  /// ``ExampleTests`` builds CardReplay, and for the same reason).
  static let binary: Result<String, BuildError> = {
    let checkout = TiltCLI.packageRoot.path.map { $0.isLetter || $0.isNumber ? $0 : "-" }
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-async-example-build" + String(checkout))
    try? FileManager.default.removeItem(at: scratch)
    do {
      let build = try TiltCLI.runTool(
        "/usr/bin/env",
        ["swift", "build", "--package-path", example.path, "--scratch-path", scratch.path])
      guard build.status == 0 else { return .failure(BuildError(log: build.stdout + build.stderr)) }
    } catch {
      return .failure(BuildError(log: "\(error)"))
    }
    return .success(scratch.appendingPathComponent("debug/AsyncTilt").path)
  }()

  struct BuildError: Error, CustomStringConvertible {
    var log: String
    var description: String { "swift build --package-path Examples/AsyncTilt failed:\n\(log)" }
  }

  @Test func aDeviceItCannotOpenIsNamedOnStderr() throws {
    let binary = try Self.binary.get()
    let path = "/dev/input/no-such-event-node"
    let run = try TiltCLI.runTool(binary, [path])
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("AsyncTilt: "), "\(run.stderr)")
    #expect(run.stderr.contains(path), "\(run.stderr)")
  }

  @Test func isUnderTwentyLines() throws {
    let main = try String(
      contentsOf: Self.example.appendingPathComponent("Sources/AsyncTilt/main.swift"),
      encoding: .utf8)
    let code = main.split(separator: "\n").filter {
      let line = $0.trimmingCharacters(in: .whitespaces)
      return !line.isEmpty && !line.hasPrefix("//")
    }
    #expect(code.count < 20, "\(code.count) lines of code")
    #expect(main.contains("for try await"))
  }
}
