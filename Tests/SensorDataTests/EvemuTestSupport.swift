import Foundation
import TestTools
import Testing

@testable import SensorData

/// Paths to the shared reference data, relative to the package root, and
/// scratch files for tests.
enum TestData {
  static let root = "../shared/data"

  /// The path of a shared data file, for a test with `.needsSharedData(…)`;
  /// throws (the test fails) when it is absent.
  static func path(_ relative: String) throws -> String {
    _ = try TestTools.requireShared("data/" + relative)
    return "\(root)/\(relative)"
  }

  /// A fresh scratch directory.
  static func scratchDirectory() -> String {
    let dir = NSTemporaryDirectory() + "tilt-evdev-tests-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  /// Writes `contents` to a scratch file and returns its path.
  static func file(_ contents: String, name: String = "test.evemu") -> String {
    let path = scratchDirectory() + "/" + name
    _ = FileManager.default.createFile(atPath: path, contents: Data(contents.utf8))
    return path
  }

  static func file(bytes: [UInt8], name: String = "test.evemu") -> String {
    let path = scratchDirectory() + "/" + name
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    return path
  }
}

extension EvemuReader {
  /// Every frame of the file.
  func allFrames() throws(RecordingError) -> [Frame] {
    var frames: [Frame] = []
    while let frame = try nextFrame() { frames.append(frame) }
    return frames
  }
}

/// A bad file for a reader and the error it must give: what kind, on which
/// line (0 for the file as a whole), with which words in the message.
struct BadInput: CustomStringConvertible, Sendable {
  var name: String
  var text: String
  var kind: RecordingError.Kind
  var line: Int
  var message: String
  var description: String { name }
}
