import Foundation
import Testing

/// A misspelt option is a compile error, not a quiet `nil`: a snippet that
/// reads an option is type-checked by `swiftc` against the built
/// `CommandLineOptions` module, spelt right (it must compile) and misspelt or
/// read by name (it must not, with the compiler's reason).
///
/// The toolchain that built the tests has `swiftc`, and the build directory
/// beside the test bundle has the module: either missing is a failure, not a
/// skip, so that the check cannot silently stop running.
@Suite(.serialized) struct MisspeltKeyTests {
  /// A program's keys and a function that reads one option in `reading`.
  static func snippet(reading: String) -> String {
    """
    import CommandLineOptions

    enum PaintKeys {
      static let output = Option<String>.value("output", short: "o", "FILE", help: "Where.")
      static let layer = RepeatableOption("layer", "PATH", help: "A layer.")
      static let json = Flag("json", help: "As JSON.")
    }
    func read(_ arguments: CommandLineArguments) throws -> Any? {
      \(reading)
    }

    """
  }

  /// What `swiftc -typecheck` says of `source`: its status and its errors.
  static func typecheck(_ source: String) throws -> (status: Int32, errors: String) {
    let swiftc = try #require(
      path(of: "swiftc"), "swiftc is not on PATH: the misspelt-key check needs the toolchain")
    let bundle = CommandLine.arguments[0]
    let modules = try #require(
      modulesDirectory(),
      "CommandLineOptions.swiftmodule not found near the test bundle (\(bundle)): the misspelt-key check needs the built module"
    )
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("misspelt-key-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("Snippet.swift")
    try source.write(to: file, atomically: true, encoding: .utf8)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: swiftc)
    // One module cache for every snippet: Foundation's modules are built once.
    let cache = FileManager.default.temporaryDirectory
      .appendingPathComponent("misspelt-key-module-cache")
    process.arguments = [
      "-typecheck", "-I", modules.path, "-module-cache-path", cache.path, file.path,
    ]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }

  /// The first `name` on `PATH`.
  static func path(of name: String) -> String? {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    return directories.map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// The directory that holds `CommandLineOptions.swiftmodule`: SwiftPM 6 puts
  /// the modules in `Modules` beside the test bundle, in the build directory.
  static func modulesDirectory() -> URL? {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = bundle.deletingLastPathComponent()
    for _ in 0..<4 {
      for candidate in [directory.appendingPathComponent("Modules"), directory] {
        let module = candidate.appendingPathComponent("CommandLineOptions.swiftmodule")
        if FileManager.default.fileExists(atPath: module.path) { return candidate }
      }
      directory = directory.deletingLastPathComponent()
    }
    return nil
  }

  /// Spelt right, each kind of key reads: the snippet compiles, so that the
  /// failures below are the spelling's, not the snippet's.
  @Test(arguments: [
    "try arguments[PaintKeys.output]", "arguments[PaintKeys.layer]",
    "arguments[PaintKeys.json]", "arguments.isGiven(PaintKeys.output)",
  ])
  func aKeySpeltRightCompiles(reading: String) throws {
    let result = try Self.typecheck(Self.snippet(reading: "return \(reading)"))
    #expect(result.status == 0, "\(reading) should compile:\n\(result.errors)")
    #expect(!result.errors.contains("error:"), "\(result.errors)")
  }

  /// Misspelt, the key does not exist; and no reader takes a name.
  @Test(arguments: [
    ("try arguments[PaintKeys.outptu]", "type 'PaintKeys' has no member 'outptu'"),
    ("arguments[PaintKeys.layers]", "type 'PaintKeys' has no member 'layers'"),
    ("arguments.string(\"output\")", "has no member 'string'"),
    ("arguments.has(\"json\")", "has no member 'has'"),
    ("arguments.values[\"output\"]", "'values' is inaccessible due to 'internal' protection level"),
    (
      "arguments.flags.contains(\"json\")",
      "'flags' is inaccessible due to 'internal' protection level"
    ),
  ])
  func aMisspeltOrNamedReadDoesNotCompile(reading: String, error: String) throws {
    let result = try Self.typecheck(Self.snippet(reading: "return \(reading)"))
    #expect(result.status != 0, "\(reading) should not compile")
    #expect(result.errors.contains(error), "\(result.errors)")
  }
}
