import Motion
import SystemCalls
import TiltCard

/// The terminal view's keys, as a participant of the loop: space flips, `r`
/// recenters, `p` stops and starts updates, `q` quits (contract §3.3), Ctrl-L
/// redraws the whole screen.
///
/// Not thread-safe (not `Sendable`): use it from one thread.
public final class TerminalKeys: LoopParticipant {
  public let input: Int32
  public let pipeline: TiltPipeline
  private var decoder = TerminalKeyDecoder()

  /// Keys read from `input` (standard input, descriptor 0, by default) into `pipeline`.
  public init(input: Int32 = 0, pipeline: TiltPipeline) {
    self.input = input
    self.pipeline = pipeline
  }

  public var pollDescriptors: [Int32] { [input] }
  public var deadline: MonotonicInstant? { nil }

  public func service(ready: Set<Int32>) throws {
    guard ready.contains(input) else { return }
    for input in decoder.inputs(in: Syscall.readAvailable(input)) {
      guard case .key(let key) = input else {
        try pipeline.sink.redraw()
        continue
      }
      guard let command = key.sessionCommand else { return pipeline.requestEnd() }
      try pipeline.perform(command)
    }
  }
}

/// Ends the loop when standard output is a pipe whose reader went away, even
/// while nothing is being written (the card at rest): the loop's wait reports
/// `POLLERR` on the write end of a pipe with no reader.
///
/// Not thread-safe (not `Sendable`): use it from one thread.
public final class ReaderWatch: LoopParticipant {
  public let output: Int32
  public let pipeline: TiltPipeline
  private let isPipe: Bool

  /// Watches `output` (standard output, descriptor 1, by default) for `pipeline`.
  public init(output: Int32 = 1, pipeline: TiltPipeline) {
    self.output = output
    self.pipeline = pipeline
    isPipe = Syscall.isPipe(output)
  }

  public var pollDescriptors: [Int32] { isPipe ? [output] : [] }
  public var deadline: MonotonicInstant? { nil }

  public func service(ready: Set<Int32>) throws {
    if ready.contains(output) { pipeline.requestEnd() }
  }
}

extension OutputSink.WriteError {
  /// The reader went away (`EPIPE`): like `yes | head`, the end, not a failure.
  public var isBrokenPipe: Bool { errno == Errno.brokenPipe.rawValue }
}
