import EvdevCore
import Foundation
import Glibc
import SystemCalls
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
      return JSONLSink(output: try OutputFile.open(output))
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

/// `--output FILE` or standard output, as an ``OutputSink``.
enum OutputFile {
  static func open(_ path: String?) throws -> OutputSink {
    guard let path else {
      return OutputSink(fileDescriptor: STDOUT_FILENO, destination: "standard output")
    }
    let fd: Int32
    do {
      fd = try Syscall.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
    } catch {
      throw Failure("\(path): cannot write the output: \(error.message)")
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
    if output.fileDescriptor != STDOUT_FILENO { Syscall.close(output.fileDescriptor) }
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
  private var renderer: TerminalRenderer
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

  /// When the screen was last drawn (monotonic seconds).
  private var drawnAt = -Double.infinity
  private var pending = false
  /// Frames closer together than this are not all drawn: a terminal shows
  /// no more than about 60 a second, and a replay at `--speed max` makes
  /// hundreds; the newest is drawn once this has passed.
  static let minimumInterval = 0.012

  func show(_ frames: [CardFrame]) throws {
    guard let frame = frames.last else { return }
    last = frame
    guard LoopClock.now() - drawnAt >= Self.minimumInterval else {
      pending = true
      return
    }
    try redraw()
  }

  /// Draws a held-back frame once ``minimumInterval`` has passed, or at once
  /// when it says something the drawn one does not (stopped, the other face,
  /// a flip asked for): the loop may sleep after this, and what it shows then
  /// must be so. A tilt a few milliseconds old is not redrawn on its own,
  /// so a view slower than the frames (a debug build) keeps up with them.
  func flush() throws {
    guard pending, let last else { return }
    if LoopClock.now() - drawnAt >= Self.minimumInterval || Self.key(last) != drawnKey {
      try redraw()
    }
  }

  private var drawnKey: String?
  private static func key(_ f: CardFrame) -> String {
    "\(f.state.rawValue) \(f.face.rawValue) \(f.flipped)"
  }

  /// The live page's URL (`--serve`), kept in the heading (what is printed
  /// on standard error is drawn over by the view).
  var servedURL: String? {
    get { renderer.servedURL }
    set {
      renderer.servedURL = newValue
      try? redraw()
    }
  }

  /// The bundled demo: its length, for the heading's progress.
  func showsDemo() {
    renderer.showsTime = true
    renderer.duration = DemoRecording.duration
  }

  func redraw() throws {
    guard let last else { return }
    let size = TerminalMode.size() ?? (80, 24)
    try output.write(renderer.render(last, columns: size.columns, rows: size.rows))
    try output.flush()
    drawnAt = LoopClock.now()
    drawnKey = Self.key(last)
    pending = false
  }

  func finish() throws {
    mode.restore()
  }
}

/// How long a recording plays, from its first and last sample times, for the
/// terminal view's progress; `nil` when that is not quickly known. Only the
/// head and the tail of the file are read.
enum RecordingLength {
  static func seconds(of path: String) -> Double? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    let chunk = 1 << 16
    guard let head = try? handle.read(upToCount: chunk), !head.isEmpty,
      let end = try? handle.seekToEnd()
    else { return nil }
    let tail: Data
    if end > UInt64(chunk) {
      guard (try? handle.seek(toOffset: end - UInt64(chunk))) != nil,
        let t = try? handle.read(upToCount: chunk)
      else { return nil }
      tail = t
    } else {
      tail = head
    }
    let headLines = String(decoding: head, as: UTF8.self).split(separator: "\n")
    let tailLines = String(decoding: tail, as: UTF8.self).split(separator: "\n")
    if RecordingSource.looksLikeCSV(path) {
      guard let header = headLines.first else { return nil }
      let names = header.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard let column = names.firstIndex(of: "t_s") else { return nil }
      func time(_ line: Substring) -> Double? {
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard column < fields.count else { return nil }
        return Double(fields[column].trimmingCharacters(in: .whitespaces))
      }
      guard let first = headLines.dropFirst().lazy.compactMap(time).first,
        let last = tailLines.reversed().lazy.compactMap(time).first
      else { return nil }
      return last > first ? last - first : nil
    }
    // evemu: "E: 12.345678 0003 0000 ..." lines.
    func time(_ line: Substring) -> Double? {
      guard line.hasPrefix("E: ") else { return nil }
      return line.dropFirst(3).split(separator: " ").first.flatMap { Double($0) }
    }
    guard let first = headLines.lazy.compactMap(time).first,
      let last = tailLines.reversed().lazy.compactMap(time).first
    else { return nil }
    return last > first ? last - first : nil
  }
}
