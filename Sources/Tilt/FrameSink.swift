import Motion
import TiltCard

/// Where display frames go: JSON lines, a terminal view, an HTML page, an
/// app's own view.
public protocol FrameSink: AnyObject {
  /// Shows a batch of frames, oldest first.
  func show(_ frames: [CardFrame]) throws
  /// Draws the last frame again (the terminal was resized).
  func redraw() throws
  /// Makes what was shown visible now (the live loop calls it after each turn).
  func flush() throws
  /// Writes what is left; the output is complete after this.
  func finish() throws
}

extension FrameSink {
  public func redraw() throws {}
  public func flush() throws {}
  public func finish() throws {}
}

/// A sink that hands each batch to a closure: for an app that draws the card
/// itself, or a test.
///
/// Not thread-safe (not `Sendable`): use it from one thread.
public final class FrameHandlerSink: FrameSink {
  private let handler: ([CardFrame]) throws -> Void

  public init(_ handler: @escaping ([CardFrame]) throws -> Void) { self.handler = handler }

  public func show(_ frames: [CardFrame]) throws { try handler(frames) }
}
