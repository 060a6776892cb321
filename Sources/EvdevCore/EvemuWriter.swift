import Glibc

/// A recording that could not be written: the file and what went wrong.
public struct RecordingWriteError: Error, Hashable, Sendable, CustomStringConvertible {
  public var path: String
  /// The `errno` of the failed call.
  public var code: Int32
  public var description: String

  init(path: String, code: Int32, doing: String) {
    self.path = path
    self.code = code
    let nothing = "nothing was written under \(path)"
    if code == ENOSPC || code == EDQUOT {
      description = "no space left writing \(path); \(nothing)"
    } else {
      description = "cannot \(doing) \(path): \(String(cString: strerror(code))); \(nothing)"
    }
  }
}

/// Writes an evemu recording that `evemu-play` and `evemu-device` accept, in
/// the format `evemu-record` writes (see ``EvemuTextFormat``).
///
/// The events go to a temporary file `.NAME.XXXXXX` in the same directory;
/// ``finish()`` syncs it to disk and renames it to `path`, so `path` never
/// holds half a recording. ``abandon()`` (or dropping an unfinished writer)
/// removes the temporary file.
public final class EvemuWriter {
  public let path: String
  private let temporaryPath: String
  private var fd: Int32
  private var format: EvemuTextFormat
  private var pending = ""
  private var done = false
  /// Events written so far.
  public private(set) var eventCount = 0

  static let flushThreshold = 1 << 16

  /// Creates the temporary file and writes the device description.
  ///
  /// - Parameter comments: lines after the version line; by default the
  ///   kernel release and DMI modalias, as `evemu-record` writes them.
  public init(path: String, info: DeviceInfo, comments: [String]? = nil) throws(RecordingWriteError)
  {
    self.path = path
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = Array("\(directory).\(name).XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    if fd < 0 { throw RecordingWriteError(path: path, code: errno, doing: "create a file next to") }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    self.fd = fd
    temporaryPath = String(cString: template)
    fchmod(fd, 0o644)
    format = EvemuTextFormat(info: info)
    pending = format.header(comments: comments ?? Self.systemComments())
    do { try flush() } catch {
      abandon()
      throw error
    }
  }

  deinit { if !done { abandon() } }

  /// Appends the events of `frame`.
  public func write(_ frame: Frame) throws(RecordingWriteError) {
    precondition(!done, "EvemuWriter.write after finish or abandon")
    format.append(frame, to: &pending)
    eventCount += frame.events.count
    if pending.utf8.count >= Self.flushThreshold { try flush() }
  }

  /// Writes out what is buffered (the file stays under its temporary name).
  public func flush() throws(RecordingWriteError) {
    var failure: Int32 = 0
    pending.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += n
      }
    }
    pending = ""
    if failure != 0 {
      abandon()
      throw RecordingWriteError(path: path, code: failure, doing: "write")
    }
  }

  /// Writes what is left, syncs the file and renames it to `path`.
  public func finish() throws(RecordingWriteError) {
    guard !done else { return }
    try flush()
    if fsync(fd) != 0 {
      let code = errno
      abandon()
      throw RecordingWriteError(path: path, code: code, doing: "sync")
    }
    close(fd)
    fd = -1
    if rename(temporaryPath, path) != 0 {
      let code = errno
      unlink(temporaryPath)
      done = true
      throw RecordingWriteError(path: path, code: code, doing: "rename the recording to")
    }
    done = true
  }

  /// Removes the temporary file; `path` is left as it was.
  public func abandon() {
    guard !done else { return }
    if fd >= 0 { close(fd) }
    fd = -1
    unlink(temporaryPath)
    done = true
  }

  /// The kernel release and DMI modalias, as `evemu-record` writes them.
  static func systemComments() -> [String] {
    var comments: [String] = []
    var names = utsname()
    if uname(&names) == 0 {
      let release = withUnsafeBytes(of: &names.release) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      comments.append("Kernel: \(release)")
    }
    if let file = fopen("/sys/class/dmi/id/modalias", "r") {
      defer { fclose(file) }
      var line = [CChar](repeating: 0, count: 2048)
      if fgets(&line, Int32(line.count), file) != nil {
        let text = String(cString: line).trimmingTrailingNewline()
        comments.append("DMI: \(text)")
      }
    }
    return comments
  }
}

extension String {
  func trimmingTrailingNewline() -> String {
    var s = self
    while s.hasSuffix("\n") { s.removeLast() }
    return s
  }
}
