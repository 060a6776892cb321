import SystemCalls

/// Reads a file line by line through `read(2)` into one fixed buffer, so memory
/// stays flat however long the file is.
///
/// A line handed out is a view into the buffer, valid until the next call. Lines
/// longer than the buffer are refused (a text recording never has them; binary
/// data such as `/dev/zero` does), so a read never grows without bound.
///
/// Not thread-safe (not `Sendable`): use it from one thread or task at a time.
final class BufferedLineReader {
  let path: String
  /// What the file should be, for messages: "an evemu recording", "a CSV log".
  let expected: String
  private let fd: Int32
  private let buffer: UnsafeMutableRawBufferPointer
  private var start = 0
  private var end = 0
  private var atEOF = false
  /// The 1-based number of the line last returned.
  private(set) var lineNumber = 0

  static let capacity = 1 << 16

  convenience init(path: String, expected: String) throws(RecordingError) {
    let fd: Int32
    do {
      fd = try Syscall.open(path, .readOnly)
    } catch {
      throw RecordingError(
        file: path, line: 0, kind: .unreadable,
        message: "cannot open: \(error.message); check the path and its permissions")
    }
    if (try? Syscall.fileKind(fd)) == .directory {
      Syscall.close(fd)
      throw RecordingError(
        file: path, line: 0, kind: .directory,
        message: "is a directory; give a recording file inside it")
    }
    self.init(fileDescriptor: fd, path: path, expected: expected)
  }

  /// Reads an open descriptor, which it then owns; `path` names it in messages.
  init(fileDescriptor fd: Int32, path: String, expected: String) {
    self.path = path
    self.expected = expected
    self.fd = fd
    buffer = .allocate(byteCount: Self.capacity, alignment: 16)
  }

  /// Reads `text` from an unlinked temporary file; `name` names it in messages.
  convenience init(text: String, name: String, expected: String) throws(RecordingError) {
    let fd: Int32
    do {
      fd = try Syscall.temporaryFile(holding: Array(text.utf8))
    } catch {
      throw RecordingError(
        file: name, line: 0, kind: .io,
        message:
          "cannot write a temporary file: \(error.message); check that TMPDIR (else /tmp) is writable and has space"
      )
    }
    self.init(fileDescriptor: fd, path: name, expected: expected)
  }

  /// Whether the file can be read again from its start (a regular file, not a
  /// pipe or a device): what a reader needs to check a file before it plays it.
  var canRewind: Bool { (try? Syscall.fileKind(fd)) == .regular }

  /// Starts again from the first line.
  func rewind() throws(RecordingError) {
    do {
      try Syscall.rewind(fd)
    } catch {
      throw RecordingError(
        file: path, line: 0, kind: .io,
        message:
          "cannot read the file again from its start: \(error.message); check the file or disk")
    }
    start = 0
    end = 0
    atEOF = false
    lineNumber = 0
  }

  /// Reads and drops lines up to and including line `number` (after ``rewind()``,
  /// back to where a first pass stood).
  func skip(toLine number: Int) throws(RecordingError) {
    while lineNumber < number, try nextLine() != nil {}
  }

  deinit {
    Syscall.close(fd)
    buffer.deallocate()
  }

  /// The next line without its `\n` (and without a trailing `\r`), or nil at
  /// the end of the file.
  func nextLine() throws(RecordingError) -> UnsafeBufferPointer<UInt8>? {
    let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
    while true {
      if start < end,
        let offset = Memory.firstIndex(
          of: 0x0A, in: UnsafeRawBufferPointer(start: base + start, count: end - start))
      {
        let nlIndex = start + offset
        let line = trimmed(base + start, nlIndex - start)
        start = nlIndex + 1
        lineNumber += 1
        return line
      }
      if atEOF {
        guard start < end else { return nil }
        let line = trimmed(base + start, end - start)
        start = end
        lineNumber += 1
        return line
      }
      if start > 0 {
        UnsafeMutableRawPointer(base).copyMemory(from: base + start, byteCount: end - start)
        end -= start
        start = 0
      }
      if end == Self.capacity {
        if Memory.firstIndex(of: 0, in: UnsafeRawBufferPointer(start: base, count: end)) != nil {
          throw binaryData(at: lineNumber + 1)
        }
        throw RecordingError(
          file: path, line: lineNumber + 1, kind: .garbled,
          message: "line longer than \(Self.capacity) bytes; not \(expected): "
            + RecordingError.giveARecording)
      }
      let count: Int
      do {
        count =
          try Syscall.read(
            fd, into: UnsafeMutableRawBufferPointer(start: base + end, count: Self.capacity - end))
          ?? 0
      } catch {
        let isDirectory = error == .isDirectory
        throw RecordingError(
          file: path, line: lineNumber + 1, kind: isDirectory ? .directory : .io,
          message: isDirectory
            ? "is a directory; give a recording file inside it"
            : "read failed: \(error.message); check the file or disk")
      }
      if count == 0 { atEOF = true } else { end += count }
    }
  }

  /// Throws ``binaryData(at:)`` when `line`, the line last returned, looks
  /// binary (`looksBinary`).
  func refuseBinary(_ line: UnsafeBufferPointer<UInt8>) throws(RecordingError) {
    if line.looksBinary { throw binaryData(at: lineNumber) }
  }

  /// The error for binary data at line `number`: the file is not ``expected``.
  func binaryData(at number: Int) -> RecordingError {
    Self.binaryData(in: path, expected: expected, at: number)
  }

  /// The error for binary data at line `number` of `path`, which is not
  /// `expected` ("an evemu recording", "a CSV log").
  static func binaryData(in path: String, expected: String, at number: Int) -> RecordingError {
    RecordingError(
      file: path, line: number, kind: .binary,
      message: "not \(expected) (binary data at line \(number)); \(RecordingError.giveARecording)")
  }

  private func trimmed(_ p: UnsafeMutablePointer<UInt8>, _ n: Int) -> UnsafeBufferPointer<UInt8> {
    var n = n
    if n > 0, p[n - 1] == 0x0D { n -= 1 }
    return UnsafeBufferPointer(start: p, count: n)
  }
}

extension UnsafeBufferPointer where Element == UInt8 {
  /// Whether the bytes hold a NUL or are not valid UTF-8: the mark of a file
  /// that is not text.
  var looksBinary: Bool {
    var ascii = true
    for byte in self {
      if byte == 0 { return true }
      if byte >= 0x80 { ascii = false }
    }
    if ascii { return false }
    return String(validating: self, as: UTF8.self) == nil
  }
}
