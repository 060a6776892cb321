import Foundation
import TestTools
import Testing

/// Issue 14: the README's "Using it" commands work, in order, on a machine
/// with no motion device, so the README cannot rot. Each line of the section's
/// first `sh` block runs through bash with the built `tilt-cli` first on
/// `PATH`, from a scratch checkout layout: `recordings/` and `../shared` are
/// links to the real ones, everything a command writes lands in scratch.
@Suite(.timeLimit(.minutes(10))) struct ReadmeTests {
  /// The commands of the first `sh` block under `## Using it`, comments dropped.
  static func examples() throws -> [String] {
    let readme = try String(
      contentsOf: TiltCLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = readme.components(separatedBy: "\n")
    let section = try #require(lines.firstIndex(of: "## Using it"), "README has '## Using it'")
    let start = try #require(lines[section...].firstIndex(of: "```sh"), "a sh block in it")
    let end = try #require(lines[(start + 1)...].firstIndex(of: "```"), "the block ends")
    return lines[(start + 1)..<end].compactMap { line in
      let command = line.components(separatedBy: " #").first!
        .trimmingCharacters(in: .whitespaces)
      return command.isEmpty || command.hasPrefix("#") ? nil : command
    }
  }

  /// A scratch checkout: `DIR/tilt/recordings` and `DIR/shared` linked to
  /// the real ones; returns `DIR/tilt`, the directory the commands run in.
  static func scratchCheckout() throws -> URL {
    let fm = FileManager.default
    let dir = fm.temporaryDirectory.appendingPathComponent("tilt-readme-\(UUID().uuidString)")
    let checkout = dir.appendingPathComponent("tilt")
    try fm.createDirectory(at: checkout, withIntermediateDirectories: true)
    try fm.createSymbolicLink(
      at: checkout.appendingPathComponent("recordings"),
      withDestinationURL: TiltCLI.packageRoot.appendingPathComponent("recordings"))
    if let shared = TestTools.shared("") {
      try fm.createSymbolicLink(
        at: dir.appendingPathComponent("shared"), withDestinationURL: shared)
    }
    try fm.createDirectory(
      at: checkout.appendingPathComponent("no-input-devices"), withIntermediateDirectories: true)
    return checkout
  }

  /// Runs `commands` in order; each must exit 0.
  static func runInOrder(_ commands: [String]) throws {
    let checkout = try scratchCheckout()
    defer { try? FileManager.default.removeItem(at: checkout.deletingLastPathComponent()) }
    let bin = TiltCLI.binary.deletingLastPathComponent().path
    for command in commands {
      let script =
        "export PATH='\(bin)':\"$PATH\" TILT_INPUT_DIR=\"$PWD/no-input-devices\"; \(command)"
      let r = try TiltCLI.runTool("/bin/bash", ["-o", "pipefail", "-c", script], in: checkout)
      #expect(r.status == 0, "README: `\(command)` exits \(r.status): \(r.stderr)")
    }
  }

  @Test func theUsingItBlockIsThere() throws {
    let commands = try Self.examples()
    #expect(commands.count >= 8, "\(commands)")
    for command in commands {
      #expect(command.hasPrefix("tilt-cli"), "every line is a tilt-cli command: \(command)")
      #expect(!command.contains("/dev/input"), "no device needed: \(command)")
    }
    #expect(commands.contains { $0.contains("recordings/demo.evemu") })
    #expect(commands.contains { $0.contains(".csv") && $0.hasPrefix("tilt-cli info") })
  }

  @Test func everyCommandWithoutTheSharedDataRuns() throws {
    try Self.runInOrder(try Self.examples().filter { !$0.contains("../shared") })
  }

  @Test(.needsSharedData()) func everyCommandOnTheSharedDataRuns() throws {
    let commands = try Self.examples().filter { $0.contains("../shared") }
    #expect(!commands.isEmpty)
    try Self.runInOrder(commands)
  }
}
