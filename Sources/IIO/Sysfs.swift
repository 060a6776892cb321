import SystemCalls

/// sysfs attribute files, through SystemCalls: small text values read and
/// written whole.
enum Sysfs {
  /// The attribute's text without its trailing newline; throws the errno.
  static func read(_ path: String) throws(Errno) -> String {
    var text = String(decoding: try Syscall.readSmallFile(path), as: UTF8.self)
    while text.last == "\n" { text.removeLast() }
    return text
  }

  /// The attribute's text, or `nil` when it is absent or unreadable.
  static func readIfPresent(_ path: String) -> String? { try? read(path) }

  /// Writes `text` to the attribute (one write, as sysfs wants).
  static func write(_ path: String, _ text: String) throws(Errno) {
    let fd = try Syscall.open(path, .writeOnly)
    defer { Syscall.close(fd) }
    try Syscall.writeAll(fd, Array(text.utf8))
  }

  static func exists(_ path: String) -> Bool { (try? Syscall.fileKind(path)) != nil }
}

/// `read(2)` into `buffer`: the bytes read, `nil` when a non-blocking descriptor has none yet.
func readChunk(_ fd: Int32, into buffer: inout [UInt8]) throws(Errno) -> Int? {
  var failure: Errno?
  let n = buffer.withUnsafeMutableBytes { raw -> Int? in
    do throws(Errno) { return try Syscall.read(fd, into: raw) } catch {
      failure = error
      return nil
    }
  }
  if let failure { throw failure }
  return n
}
