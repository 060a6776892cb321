import Foundation
import Motion
import SystemCalls
import TiltCard

/// One self-contained page with every frame (contract §4.3's `--format html`),
/// written when the frames end: to a file, or to standard output.
///
/// Not thread-safe (not `Sendable`): use it from one thread.
public final class HTMLSink: FrameSink {
  private let renderer: HTMLRenderer
  private let path: String?
  private var frames: [CardFrame] = []

  /// Writes the page to `path` (replaced whole, never left half written), or
  /// to standard output when `path` is `nil`, at ``finish()``.
  public init(renderer: HTMLRenderer, path: String?) {
    self.renderer = renderer
    self.path = path
  }

  public func show(_ frames: [CardFrame]) throws { self.frames += frames }

  public func redraw() throws {}

  /// Writes the page. Throws ``OutputError`` naming the file when it cannot
  /// be written, `OutputSink.WriteError` when standard output cannot.
  public func finish() throws {
    let page = renderer.render(frames)
    guard let path else {
      let out = OutputSink(
        fileDescriptor: StandardDescriptor.output, destination: "standard output")
      try out.write(page)
      try out.flush()
      return
    }
    do {
      try Data(page.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw OutputError(path: path, what: "the page", reason: error.localizedDescription)
    }
  }
}
