import Foundation
import Tilt
import TiltCard

extension PipelineOptions {
  /// The format asked for, or the one that fits the output: html for a `.html`
  /// file, the terminal view on a terminal, else JSON lines.
  var resolvedFormat: Format {
    if let format { return format }
    if let output { return output.lowercased().hasSuffix(".html") ? .html : .jsonl }
    return StandardOutput.isTerminal ? .tty : .jsonl
  }

  /// A sink for the resolved format, writing to `--output` or standard output.
  /// `title` names the page; the terminal view's heading is `source` (a
  /// recording's path, with its time and progress), else `title`.
  func makeSink(card: CardConfiguration, title: String, source: String? = nil) throws -> FrameSink {
    switch resolvedFormat {
    case .jsonl:
      return try JSONLSink(path: output)
    case .html:
      return HTMLSink(renderer: HTMLRenderer(configuration: card, title: title), path: output)
    case .tty:
      if let output {
        throw UsageError("'--format tty' draws on the terminal; it can't go to '\(output)'")
      }
      let environment = ProcessInfo.processInfo.environment
      let renderer = TerminalRenderer(
        configuration: card, colorMode: TerminalRenderer.ColorMode(environment: environment),
        blocks: TerminalRenderer.Blocks(environment: environment), heading: source ?? title,
        showsTime: source != nil, duration: source.flatMap(RecordingLength.seconds(of:)))
      return try TerminalSink(renderer: renderer)
    }
  }
}
