import Foundation
import Glibc
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
  func makeSink(card: CardConfiguration, title: String) throws -> FrameSink {
    switch resolvedFormat {
    case .jsonl:
      return JSONLSink(output: try OutputFile.open(output))
    case .html:
      return HTMLSink(renderer: HTMLRenderer(configuration: card, title: title), path: output)
    case .tty:
      if let output {
        throw UsageError("'--format tty' draws on the terminal; it can't go to '\(output)'")
      }
      let colors = TerminalRenderer.ColorMode(environment: ProcessInfo.processInfo.environment)
      return try TerminalSink(
        renderer: TerminalRenderer(configuration: card, colorMode: colors, heading: title))
    }
  }
}

/// `--output FILE` or standard output, as an ``OutputSink``.
enum OutputFile {
  static func open(_ path: String?) throws -> OutputSink {
    guard let path else {
      return OutputSink(fileDescriptor: STDOUT_FILENO, destination: "standard output")
    }
    let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw Failure("\(path): cannot write the output: \(String(cString: strerror(errno)))")
    }
    return OutputSink(fileDescriptor: fd, destination: path)
  }
}

/// SPEC §4's JSON lines.
final class JSONLSink: FrameSink {
  private let output: OutputSink
  private let encoder = JSONLFrameEncoder()

  init(output: OutputSink) { self.output = output }

  func show(_ frames: [CardFrame]) throws {
    for frame in frames {
      try output.append { encoder.encode(frame, into: &$0) }
    }
  }

  func redraw() throws {}

  /// Lets a reader see the frames made so far.
  func flush() throws { try output.flush() }

  func finish() throws {
    try output.flush()
    if output.fileDescriptor != STDOUT_FILENO { close(output.fileDescriptor) }
  }
}

/// One self-contained page with every frame, written when the replay ends.
final class HTMLSink: FrameSink {
  private let renderer: HTMLRenderer
  private let path: String?
  private var frames: [CardFrame] = []

  init(renderer: HTMLRenderer, path: String?) {
    self.renderer = renderer
    self.path = path
  }

  func show(_ frames: [CardFrame]) throws { self.frames += frames }

  func redraw() throws {}

  func finish() throws {
    let page = renderer.render(frames)
    guard let path else {
      let out = OutputSink(fileDescriptor: STDOUT_FILENO, destination: "standard output")
      try out.write(page)
      try out.flush()
      return
    }
    do {
      try Data(page.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw Failure("\(path): cannot write the page: \(error.localizedDescription)")
    }
  }
}

/// The card drawn in place in the terminal.
final class TerminalSink: FrameSink {
  private let renderer: TerminalRenderer
  let mode = TerminalMode()
  private let output = OutputSink(fileDescriptor: STDOUT_FILENO, destination: "the terminal")
  private var last: CardFrame?

  init(renderer: TerminalRenderer) throws {
    self.renderer = renderer
    do {
      try mode.enter()
    } catch {
      throw Failure("\(error)")
    }
  }

  func show(_ frames: [CardFrame]) throws {
    guard let frame = frames.last else { return }
    last = frame
    try redraw()
  }

  func redraw() throws {
    guard let last else { return }
    let size = TerminalMode.size() ?? (80, 24)
    try output.write(renderer.render(last, columns: size.columns, rows: size.rows))
    try output.flush()
  }

  func finish() throws {
    mode.restore()
  }
}
