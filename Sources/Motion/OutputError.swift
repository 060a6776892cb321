/// A file the frames were to be written to could not be written: the path
/// and what went wrong, worded for the person who chose the file.
public struct OutputError: Error, CustomStringConvertible, Hashable, Sendable {
  public var path: String
  /// What was being written ("the output", "the page") and why it failed.
  public var what: String
  public var reason: String

  public init(path: String, what: String, reason: String) {
    self.path = path
    self.what = what
    self.reason = reason
  }

  public var description: String { "\(path): cannot write \(what): \(reason)" }
}
