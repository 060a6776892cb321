import Foundation
import Testing

/// What a test needs from the machine, and whether a missing piece is a skip
/// or a failure, decided in one place for every test target.
///
/// A tool that `scripts/test` installs (tmux, Chromium, python3, a C
/// compiler, libevemu) is a skip on a developer's machine, shown as one, and a
/// failure when `TILT_REQUIRE_TOOLS=1` (as `scripts/test` sets it): then the
/// test runs and its `#require(TestTools.path(…))` fails, naming the tool.
/// The shared data in `../shared/data` is never installed by the project, so
/// its absence is always a skip.
public enum TestTools {
  /// True when `TILT_REQUIRE_TOOLS=1`: a missing tool fails the test.
  public static var toolsRequired: Bool {
    ProcessInfo.processInfo.environment["TILT_REQUIRE_TOOLS"] == "1"
  }

  /// Whether a test that needs tools runs: when none is missing, or when
  /// tools are required (it runs and fails at the tool's `require()`).
  public static func runs(missing: [String], required: Bool = toolsRequired) -> Bool {
    missing.isEmpty || required
  }

  /// The package root, found from this file's path.
  public static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The built `tilt-cli` beside the test bundle (the same build directory),
  /// else the package's debug build.
  public static let tiltCLI = builtProgram("tilt-cli")

  /// The package's program `name` beside the test bundle (the same build
  /// directory), else the package's debug build.
  public static func builtProgram(_ name: String) -> URL {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = dir.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      dir = dir.deletingLastPathComponent()
    }
    return packageRoot.appendingPathComponent(".build/debug/" + name)
  }

  /// `../shared/data` beside the package, where the third-party data lives.
  public static let sharedData = packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/data")

  /// `../shared/data/RELATIVE` when it exists.
  public static func sharedData(_ relative: String) -> URL? { shared("data/" + relative) }

  /// `../shared/RELATIVE` (the contract's tools, its data) when it exists.
  public static func shared(_ relative: String) -> URL? {
    let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/" + relative)
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
  }

  /// `../shared/RELATIVE`; throws (the test fails) when it is absent, for a
  /// test whose ``Trait/needsShared(_:)`` condition let it run.
  public static func requireShared(_ relative: String) throws -> URL {
    try #require(shared(relative), "../shared/\(relative) is absent")
  }

  /// The first of `names` found on `PATH` (or given as an absolute path).
  public static func path(_ names: String...) -> String? { path(names) }

  public static func path(_ names: [String]) -> String? {
    let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(
      separator: ":")
    for name in names {
      if name.hasPrefix("/") {
        if FileManager.default.isExecutableFile(atPath: name) { return name }
        continue
      }
      for dir in dirs where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
        return "\(dir)/\(name)"
      }
    }
    return nil
  }
}

/// A tool a test runs, with the Debian package that provides it.
public struct Tool: Sendable {
  public var names: [String]
  public var package: String

  public init(_ names: String..., package: String) {
    self.names = names
    self.package = package
  }

  public static let tmux = Tool("tmux", package: "tmux")
  public static let chromium = Tool(
    "chromium", "chromium-browser", "google-chrome", package: "chromium")
  public static let python3 = Tool("python3", package: "python3")
  public static let cc = Tool("cc", "gcc", "clang", package: "gcc")
  public static let script = Tool("script", package: "bsdutils")
  public static let evemuPlay = Tool("evemu-play", package: "evemu-tools")
  public static let setpriv = Tool("setpriv", package: "util-linux")

  /// Where the tool is, or nil.
  public var path: String? { TestTools.path(names) }

  /// Where the tool is; throws (the test fails) naming the package when it is missing.
  public func require() throws -> String {
    try #require(path, "\(names[0]) is not installed (apt-get install \(package))")
  }
}

/// A header file a test compiles against, with its Debian package.
public struct Header: Sendable {
  public var path: String
  public var package: String

  public static let evemu = Header(path: "/usr/include/evemu.h", package: "libevemu-dev")

  public var isInstalled: Bool { FileManager.default.fileExists(atPath: path) }

  public func require() throws {
    try #require(isInstalled, "\(path) is absent (apt-get install \(package))")
  }
}

extension Trait where Self == ConditionTrait {
  /// Runs the test when every tool is installed, or when tools are required
  /// (`TILT_REQUIRE_TOOLS=1`, so the test fails at its `require()`); else a skip
  /// that names what is missing.
  public static func needs(_ tools: Tool...) -> Self {
    let missing = tools.filter { $0.path == nil }.map {
      "\($0.names[0]) (apt-get install \($0.package))"
    }
    return .enabled(
      if: TestTools.runs(missing: missing),
      Comment(rawValue: "needs " + missing.joined(separator: ", ")))
  }

  /// Like ``needs(_:)-swift.type.method`` for a header file.
  public static func needs(_ header: Header) -> Self {
    .enabled(
      if: TestTools.runs(missing: header.isInstalled ? [] : [header.path]),
      Comment(rawValue: "needs \(header.path) (apt-get install \(header.package))"))
  }

  /// Runs the test when `../shared/data/RELATIVE` is there; else a skip that says so.
  public static func needsSharedData(_ relative: String = "README.md") -> Self {
    needsShared("data/" + relative)
  }

  /// Runs the test when `../shared/RELATIVE` is there; else a skip that says so.
  public static func needsShared(_ relative: String) -> Self {
    .enabled(
      if: TestTools.shared(relative) != nil,
      Comment(rawValue: "needs ../shared/\(relative), which is absent"))
  }
}
