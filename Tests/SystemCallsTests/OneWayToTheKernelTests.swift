import Foundation
import Testing

/// Issue 23: every call into the C library goes through SystemCalls, so
/// that a change to how the process talks to the kernel (a retry, an error's
/// wording) is made in one place. The C library targets aside.
@Suite struct OneWayToTheKernelTests {
  static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources")

  /// C library functions a Swift file could reach through Foundation too.
  static var libcCall: Regex<AnyRegexOutput> {
    try! Regex(
      #"(^|[^\w.])(poll|ppoll|ioctl|fcntl|sigaction|signal|raise|clock_gettime|getenv|strerror|usleep|nanosleep|pipe|pipe2|fopen|fflush|fsync|isatty|tcsetattr|tcgetattr|socket|recv|getaddrinfo|epoll_wait|inotify_init1|exit|_exit|dup2)\("#
    )
  }

  /// The Swift files of every target but SystemCalls, with their text.
  static func swiftFiles() throws -> [(path: String, text: String)] {
    let names = try FileManager.default.contentsOfDirectory(atPath: sources.path)
    var files: [(String, String)] = []
    for target in names.sorted() where target != "SystemCalls" {
      let root = sources.appendingPathComponent(target)
      guard let walk = FileManager.default.enumerator(atPath: root.path) else { continue }
      for case let name as String in walk where name.hasSuffix(".swift") {
        let text = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
        files.append(("\(target)/\(name)", text))
      }
    }
    return files
  }

  /// A file's lines of code, with their numbers; comment lines left out.
  static func code(_ text: String) -> [(number: Int, line: String)] {
    var lines: [(Int, String)] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if !trimmed.hasPrefix("//") { lines.append((index + 1, trimmed)) }
    }
    return lines
  }

  @Test func noTargetButSystemCallsImportsTheCLibrary() throws {
    let files = try Self.swiftFiles()
    #expect(files.count > 100, "found \(files.count) Swift files under \(Self.sources.path)")
    for (path, text) in files {
      for (number, line) in Self.code(text) where line.hasPrefix("import Glibc") {
        Issue.record("\(path):\(number) imports Glibc: call it through SystemCalls")
      }
    }
  }

  @Test func noTargetButSystemCallsCallsTheCLibrary() throws {
    let libcCall = Self.libcCall
    for (path, text) in try Self.swiftFiles() {
      for (number, line) in Self.code(text)
      where !line.hasPrefix("case ") && line.contains(libcCall) {
        Issue.record(
          "\(path):\(number) calls the C library: \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
  }

  @Test func theCommandLineToolNamesNoSystemCall() throws {
    for (path, text) in try Self.swiftFiles() where path.hasPrefix("tilt-cli/") {
      for (number, line) in Self.code(text) {
        for word in ["poll(", "Syscall.", "Glibc", "isatty", "errno"] where line.contains(word) {
          Issue.record("\(path):\(number) names \(word)")
        }
      }
    }
  }
}
