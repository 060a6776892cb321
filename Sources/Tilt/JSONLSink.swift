import Motion
import SystemCalls
import TiltCard

/// Frames as JSON lines (contract §4.1), one object a line, to a file or
/// standard output.
///
/// Not thread-safe (not `Sendable`): use it from one thread.
public final class JSONLSink: FrameSink {
  private let output: OutputSink
  private let closesOutput: Bool
  private let encoder = JSONLFrameEncoder()

  /// Writes to `output`; ``finish()`` closes its descriptor when `closesOutput`.
  public init(output: OutputSink, closesOutput: Bool) {
    self.output = output
    self.closesOutput = closesOutput
  }

  /// Writes to the file at `path` (created or emptied, mode 0644), or to
  /// standard output when `path` is `nil`. Throws ``OutputError`` naming the
  /// file when it cannot be opened for writing.
  public convenience init(path: String?) throws {
    guard let path else {
      self.init(
        output: OutputSink(
          fileDescriptor: StandardDescriptor.output, destination: "standard output"),
        closesOutput: false)
      return
    }
    let fd: Int32
    do {
      fd = try Syscall.create(path, permissions: 0o644)
    } catch {
      throw OutputError(path: path, what: "the output", reason: error.message)
    }
    self.init(output: OutputSink(fileDescriptor: fd, destination: path), closesOutput: true)
  }

  public func show(_ frames: [CardFrame]) throws {
    for frame in frames {
      try output.append { encoder.encode(frame, into: &$0) }
    }
  }

  public func redraw() throws {}

  /// Lets a reader see the frames made so far.
  public func flush() throws { try output.flush() }

  public func finish() throws {
    try output.flush()
    if closesOutput { Syscall.close(output.fileDescriptor) }
  }
}
