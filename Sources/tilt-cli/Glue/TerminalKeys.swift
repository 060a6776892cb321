import Glibc
import SystemCalls
import Tilt
import TiltCard

/// The terminal view's keys, as a participant of the loop: space flips, `r`
/// recenters, `p` stops and starts updates, `q` quits.
final class TerminalKeys: LoopParticipant {
  let input: Int32
  let pipeline: TiltPipeline

  init(input: Int32, pipeline: TiltPipeline) {
    self.input = input
    self.pipeline = pipeline
  }

  var pollDescriptors: [Int32] { [input] }
  var deadline: Double? { nil }

  func service(ready: Set<Int32>) throws {
    guard ready.contains(input) else { return }
    for byte in Syscall.readAvailable(input) {
      guard let key = TerminalKey(byte: byte) else { continue }
      guard let command = key.sessionCommand else { return pipeline.requestEnd() }
      try pipeline.perform(command)
    }
  }
}

extension OutputSink.WriteError {
  /// The reader went away (`EPIPE`): like `yes | head`, the end, not a failure.
  var isBrokenPipe: Bool { errno == EPIPE }
}

/// Ends the loop when standard output is a pipe whose reader went away, even
/// while nothing is being written (the card at rest): the loop's wait reports
/// `POLLERR` on the write end of a pipe with no reader.
final class ReaderWatch: LoopParticipant {
  let output: Int32
  let pipeline: TiltPipeline
  private let isPipe: Bool

  init(output: Int32 = STDOUT_FILENO, pipeline: TiltPipeline) {
    self.output = output
    self.pipeline = pipeline
    isPipe = Syscall.isPipe(output)
  }

  var pollDescriptors: [Int32] { isPipe ? [output] : [] }
  var deadline: Double? { nil }

  func service(ready: Set<Int32>) throws {
    if ready.contains(output) { pipeline.requestEnd() }
  }
}
