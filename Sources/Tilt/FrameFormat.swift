import Foundation
import TiltCard

/// The card's three outputs (contract §3): JSON lines, the HTML page, the
/// terminal view.
public enum FrameFormat: String, CaseIterable, Sendable {
  case jsonl, tty, html

  /// Why a sink can't be made.
  public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The terminal view draws on the terminal; it can't go to this file.
    case terminalToFile(String)

    public var description: String {
      switch self {
      case .terminalToFile(let path):
        return "'--format tty' draws on the terminal; it can't go to '\(path)'"
      }
    }
  }

  /// `format` when given, else the one that fits the output: html for a
  /// `.html` file, the terminal view on a terminal, else JSON lines.
  public static func resolved(_ format: FrameFormat?, output: String?, onTerminal: Bool)
    -> FrameFormat
  {
    if let format { return format }
    if let output { return output.lowercased().hasSuffix(".html") ? .html : .jsonl }
    return onTerminal ? .tty : .jsonl
  }

  /// A sink of this format writing to `output` (standard output when nil).
  /// `title` names the page; the terminal view's heading is `source` (a
  /// recording's path, with its time and progress), else `title`; its colours
  /// and blocks follow `environment`.
  public func makeSink(
    output: String?, card: CardConfiguration, title: String, source: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> FrameSink {
    switch self {
    case .jsonl:
      return try JSONLSink(path: output)
    case .html:
      return HTMLSink(renderer: HTMLRenderer(configuration: card, title: title), path: output)
    case .tty:
      if let output { throw Failure.terminalToFile(output) }
      let renderer = TerminalRenderer(
        configuration: card, colorMode: TerminalRenderer.ColorMode(environment: environment),
        blocks: TerminalRenderer.Blocks(environment: environment), heading: source ?? title,
        showsTime: source != nil, duration: source.flatMap(RecordingLength.seconds(of:)))
      return try TerminalSink(renderer: renderer)
    }
  }
}
