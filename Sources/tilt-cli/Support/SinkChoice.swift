import Tilt
import TiltCard

extension PipelineOptions {
  /// The format asked for, or the one that fits the output.
  var resolvedFormat: Format {
    .resolved(format, output: output, onTerminal: StandardOutput.isTerminal)
  }

  /// A sink for the resolved format, writing to `--output` or standard output.
  func makeSink(card: CardConfiguration, title: String, source: String? = nil) throws -> FrameSink {
    do {
      return try resolvedFormat.makeSink(output: output, card: card, title: title, source: source)
    } catch let error as FrameFormat.Failure {
      throw UsageError(error.description)
    }
  }
}
