import SystemCalls

/// A buffered writer over a file descriptor: bytes collect in a large buffer
/// and go out with `write(2)` when it fills or on ``flush()``.
///
/// The sink does not own the descriptor and never closes it. Writes retry
/// on `EINTR` and on short writes.
public final class OutputSink {
  /// A failed `write(2)`, worded for the person running the command.
  public struct WriteError: Error, CustomStringConvertible, Hashable, Sendable {
    public var errno: Int32
    public var destination: String
    public var description: String {
      "cannot write to \(destination): \(Errno(rawValue: errno).message)"
    }
  }

  public let fileDescriptor: Int32
  /// What the descriptor is, for error messages (e.g. "standard output" or a path).
  public let destination: String
  public private(set) var buffer: [UInt8]
  private let capacity: Int

  public init(fileDescriptor: Int32, destination: String, capacity: Int = 1 << 16) {
    self.fileDescriptor = fileDescriptor
    self.destination = destination
    self.capacity = max(capacity, 1)
    buffer = []
    buffer.reserveCapacity(self.capacity)
  }

  /// Runs `body` to append bytes, then writes out when the buffer is full.
  public func append(_ body: (inout [UInt8]) -> Void) throws(WriteError) {
    body(&buffer)
    if buffer.count >= capacity { try flush() }
  }

  public func write(_ text: String) throws(WriteError) {
    try append { $0.append(contentsOf: text.utf8) }
  }

  /// Writes out everything buffered.
  public func flush() throws(WriteError) {
    var failure: Errno?
    buffer.withUnsafeBytes { raw in
      do throws(Errno) { try Syscall.writeAll(fileDescriptor, raw) } catch { failure = error }
    }
    // What was not written is dropped too: the destination failed.
    buffer.removeAll(keepingCapacity: true)
    if let failure { throw WriteError(errno: failure.rawValue, destination: destination) }
  }
}
