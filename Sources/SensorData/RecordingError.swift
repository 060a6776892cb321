/// A recording (evemu file or CSV log) that cannot be read, with where and why.
///
/// `description` reads `FILE:LINE: what is wrong; what to do`, or `FILE: …` for
/// problems with the file as a whole (line 0).
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of problem, for callers and tests that branch on it.
  public enum Kind: String, Hashable, Sendable {
    case unreadable
    case directory
    case empty
    case binary
    case header
    case truncated
    case notANumber
    case outOfRange
    case garbled
    case missingColumn
    case notFinite
    case timeBackwards
    case io
    /// A note, not an error: the last frame has no `SYN_REPORT`.
    case unclosedFrame
    /// A note, not an error: a frame longer than any device makes was cut.
    case frameTooLong
  }

  public var file: String
  /// The 1-based line number, or 0 when the problem is the file as a whole.
  public var line: Int
  public var kind: Kind
  /// What is wrong and what to do, without the location.
  public var message: String

  public init(file: String, line: Int, kind: Kind, message: String) {
    self.file = file
    self.line = line
    self.kind = kind
    self.message = message
  }

  /// What to do about a file that is no recording at all.
  public static let giveARecording =
    "give a recording that evemu-record wrote, or a CSV log with a header row "
    + "(\(CSVColumns.time), \(CSVColumns.accelerometerG.x)…)"
  /// What to do about a line of a recording that cannot be read.
  public static let damagedLine =
    "the file is damaged or was edited: fix or remove the line, or record it again"

  public var description: String {
    line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)"
  }
}
