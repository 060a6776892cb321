import SystemCalls

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
    if code == Errno.noSpace.rawValue || code == Errno.diskQuotaExceeded.rawValue {
      description = "no space left writing \(path); \(nothing)"
    } else {
      description = "cannot \(doing) \(path): \(Errno(rawValue: code).message); \(nothing)"
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
///
/// Not thread-safe (not `Sendable`): use it from one thread or task at a time.
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
    let file: (fd: Int32, path: String)
    do {
      file = try Syscall.makeTemporaryFile(prefix: "\(directory).\(name).")
    } catch {
      throw RecordingWriteError(path: path, code: error.rawValue, doing: "create a file next to")
    }
    fd = file.fd
    temporaryPath = file.path
    Syscall.setPermissionsIfPossible(fd, 0o644)
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
    var failure: Errno?
    pending.withUTF8 { bytes in
      do throws(Errno) {
        try Syscall.writeAll(fd, UnsafeRawBufferPointer(bytes))
      } catch {
        failure = error
      }
    }
    pending = ""
    if let failure {
      abandon()
      throw RecordingWriteError(path: path, code: failure.rawValue, doing: "write")
    }
  }

  /// Writes what is left, syncs the file and renames it to `path`.
  public func finish() throws(RecordingWriteError) {
    guard !done else { return }
    try flush()
    do {
      try Syscall.fsync(fd)
    } catch {
      abandon()
      throw RecordingWriteError(path: path, code: error.rawValue, doing: "sync")
    }
    Syscall.close(fd)
    fd = -1
    do {
      try Syscall.rename(temporaryPath, path)
    } catch {
      Syscall.unlinkIfPresent(temporaryPath)
      done = true
      throw RecordingWriteError(path: path, code: error.rawValue, doing: "rename the recording to")
    }
    done = true
  }

  /// Removes the temporary file; `path` is left as it was.
  public func abandon() {
    guard !done else { return }
    if fd >= 0 { Syscall.close(fd) }
    fd = -1
    Syscall.unlinkIfPresent(temporaryPath)
    done = true
  }

  /// The kernel release and DMI modalias, as `evemu-record` writes them.
  static func systemComments() -> [String] {
    var comments: [String] = []
    if let release = SystemInfo.kernelRelease() {
      comments.append("Kernel: \(release)")
    }
    if let bytes = try? Syscall.readSmallFile("/sys/class/dmi/id/modalias"), !bytes.isEmpty {
      let line = bytes.prefix { $0 != 0x0A }
      comments.append("DMI: \(String(decoding: line, as: UTF8.self))")
    }
    return comments
  }
}
