import Foundation
import Testing

/// `Examples/CardReplay`, an app that depends on this package by relative path
/// and uses only its library products, prints byte for byte what
/// `tilt-cli replay FILE --speed max --format jsonl` prints.
@Suite(.serialized) struct ExampleTests {
  static let example = TiltCLI.packageRoot.appendingPathComponent("Examples/CardReplay")

  /// Builds the example once, from clean, as an app's developer would, in a
  /// scratch directory of its own, and gives its binary. (An incremental
  /// build in the example's `.build` once linked objects of an older library
  /// layout after a merge, and the binary crashed: about 20 s from clean is
  /// the price of not trusting it.)
  static let binary: Result<String, ExampleBuildError> = {
    // One scratch directory per checkout, emptied before each build.
    let checkout = TiltCLI.packageRoot.path.map { $0.isLetter || $0.isNumber ? $0 : "-" }
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tilt-example-build" + String(checkout))
    try? FileManager.default.removeItem(at: scratch)
    let build: TiltCLI.Result
    do {
      build = try TiltCLI.runTool(
        "/usr/bin/env",
        ["swift", "build", "--package-path", example.path, "--scratch-path", scratch.path])
    } catch {
      return .failure(ExampleBuildError(log: "\(error)"))
    }
    guard build.status == 0 else {
      return .failure(ExampleBuildError(log: build.stdout + build.stderr))
    }
    return .success(scratch.appendingPathComponent("debug/CardReplay").path)
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
