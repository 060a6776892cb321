import Foundation
import Testing

/// `Examples/CardReplay`, an app that depends on this package by relative path
/// and uses only its library products, prints byte for byte what
/// `tilt-cli replay FILE --speed max --format jsonl` prints.
@Suite(.serialized) struct ExampleTests {
  static let example = TiltCLI.packageRoot.appendingPathComponent("Examples/CardReplay")

  /// Builds the example once (a full build of the library in its own
  /// `.build`: minutes the first time) and gives its binary.
  static let binary: Result<String, ExampleBuildError> = {
    var build: TiltCLI.Result
    do {
      build = try TiltCLI.runTool(
        "/usr/bin/env", ["swift", "build", "--package-path", example.path])
      if build.status != 0 {
        // SwiftPM's incremental build of a path dependency can miss source
        // files added to it since the last build: build once more from clean.
        try? FileManager.default.removeItem(at: example.appendingPathComponent(".build"))
        build = try TiltCLI.runTool(
          "/usr/bin/env", ["swift", "build", "--package-path", example.path])
      }
    } catch {
      return .failure(ExampleBuildError(log: "\(error)"))
    }
    guard build.status == 0 else {
      return .failure(ExampleBuildError(log: build.stdout + build.stderr))
    }
    return .success(example.appendingPathComponent(".build/debug/CardReplay").path)
  }()

  struct ExampleBuildError: Error, CustomStringConvertible {
    var log: String
    var description: String { "swift build --package-path Examples/CardReplay failed:\n\(log)" }
  }

  static var files: [String] {
    var files = ["recordings/demo.evemu", "recordings/roll-pitch.csv"]
    if TiltCLI.hasSharedData {
      files += [
        "../shared/data/broad/broad02_window36-56s_as_dualsense_motion.evemu",
        "../shared/data/broad/broad02_window36-56s_groundtruth.csv",
      ]
    }
    return files
  }

  @Test(arguments: files)
  func printsWhatTheCLIPrints(file: String) throws {
    let binary = try Self.binary.get()
    let example = try TiltCLI.runTool(binary, [file])
    let cli = try TiltCLI.run(["replay", file, "--speed", "max", "--format", "jsonl"])
    #expect(example.status == 0, "\(example.stderr)")
    #expect(cli.status == 0, "\(cli.stderr)")
    #expect(!example.stdout.isEmpty)
    #expect(example.stdout == cli.stdout, "CardReplay \(file) differs from tilt-cli replay")
  }

  @Test func isWellUnderFortyLines() throws {
    let main = try String(
      contentsOf: Self.example.appendingPathComponent("Sources/CardReplay/main.swift"),
      encoding: .utf8)
    let code = main.split(separator: "\n").filter {
      !$0.trimmingCharacters(in: .whitespaces).isEmpty
        && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
    }
    #expect(code.count < 30, "\(code.count) lines of code")
  }
}
