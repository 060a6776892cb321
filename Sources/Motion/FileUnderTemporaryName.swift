import SystemCalls

/// A file written under a temporary name in its directory (`.NAME.XXXXXX`)
/// and renamed to its path only when complete (``finish()``), so that the
/// path never holds half of it; ``abandon()`` removes the temporary file.
/// Errors name the path and say what failed.
///
/// Not thread-safe (not `Sendable`): use it from one thread.
public final class FileUnderTemporaryName {
  /// A file that could not be written: its path, what was being done, the `errno`.
  public struct WriteError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    /// "create", "write"
    public var doing: String
    public var errno: Errno
    public var description: String {
      "\(path): cannot \(doing) the file: \(errno); nothing was written under that name"
    }
  }

  public let path: String
  private let temporary: (fd: Int32, path: String)
  private var pending: [UInt8] = []
  private var failure: Errno?
  private var done = false

  public init(path: String) throws {
    self.path = path
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[...$0]) } ?? "./"
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    do {
      temporary = try Syscall.makeTemporaryFile(prefix: "\(directory).\(name).")
    } catch {
      throw WriteError(path: path, doing: "create", errno: error)
    }
  }

  /// Appends `text`; written out in blocks of 64 KiB.
  public func write(_ text: String) {
    pending += Array(text.utf8)
    if pending.count >= 1 << 16 { writePending() }
  }

  private func writePending() {
    guard failure == nil, !pending.isEmpty else { return }
    do { try Syscall.writeAll(temporary.fd, pending) } catch { failure = error }
    pending.removeAll(keepingCapacity: true)
  }

  /// Writes the rest, syncs it to disk and gives it its name.
  public func finish() throws {
    guard !done else { return }
    done = true
    do {
      writePending()
      if let failure { throw failure }
      try Syscall.fsync(temporary.fd)
      Syscall.close(temporary.fd)
      try Syscall.rename(temporary.path, path)
    } catch {
      Syscall.unlinkIfPresent(temporary.path)
      throw WriteError(path: path, doing: "write", errno: error as? Errno ?? .invalidArgument)
    }
  }

  /// Removes the temporary file; nothing appears under ``path``.
  public func abandon() {
    guard !done else { return }
    done = true
    Syscall.close(temporary.fd)
    Syscall.unlinkIfPresent(temporary.path)
  }

  deinit { abandon() }
}
