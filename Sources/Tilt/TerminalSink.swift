import SensorData
import Motion
import SystemCalls
import TiltCard

/// The card drawn in place in the terminal on standard output, in raw mode
/// while it lives (``finish()`` restores the terminal). Each frame sends only
/// the cells that look different from the screen sent before
/// (``TerminalScreen``); ``redraw()`` sends the whole screen.
///
/// Not thread-safe (not `Sendable`): use it from one thread.
public final class TerminalSink: FrameSink {
  private var renderer: TerminalRenderer
  private let mode = TerminalMode()
  private let output = OutputSink(
    fileDescriptor: StandardDescriptor.output, destination: "the terminal")
  private var last: CardFrame?
  private var screen = TerminalScreen()

  /// Puts the terminal in raw mode; throws `TerminalMode.Failure` when it cannot.
  public init(renderer: TerminalRenderer) throws {
    self.renderer = renderer
    try mode.enter()
  }

  /// When the screen was last drawn.
  private var drawnAt: MonotonicInstant?
  private var pending = false
  /// Frames closer together than this are not all drawn: a terminal shows
  /// no more than about 60 a second, and a replay at full speed makes
  /// hundreds; the newest is drawn once this has passed.
  public static let minimumInterval = 0.012

  /// When frames are drawn: at most every ``minimumInterval``, and no more
  /// often than keeps the drawing within 4 % of a core (a larger terminal
  /// is drawn less often, never under 4 frames a second; contract §4.4).
  public private(set) var pacing = DrawPacing(
    share: 0.04, shortestInterval: minimumInterval, longestInterval: 0.25)

  /// When the frame held back is due to be drawn; `nil` when none is. The
  /// loop that drives the view wakes then (``TiltMotionManager`` counts it
  /// in its deadline), and ``flush()`` draws it.
  public var drawDeadline: MonotonicInstant? {
    guard pending, last != nil, let drawnAt else { return nil }
    return drawnAt + .nanoseconds(Int64(pacing.interval * 1e9))
  }

  private var isDue: Bool { drawDeadline.map { $0 <= MonotonicInstant.now } ?? true }

  public func show(_ frames: [CardFrame]) throws {
    guard let frame = frames.last else { return }
    last = frame
    pending = true
    guard isDue else { return }
    try draw()
  }

  /// Draws a held-back frame once its ``drawDeadline`` has come, or at once
  /// when it says something the drawn one does not (stopped, the other face,
  /// a flip asked for): the loop may sleep after this, and what it shows then
  /// must be so.
  public func flush() throws {
    guard pending, let last else { return }
    if isDue || Self.key(last) != drawnKey {
      try draw()
    }
  }

  private var drawnKey: String?
  private static func key(_ f: CardFrame) -> String {
    "\(f.state.rawValue) \(f.face.rawValue) \(f.flipped)"
  }

  /// The live page's URL, kept in the heading. Setting it redraws the whole
  /// screen: what was printed on standard error is drawn over.
  public var servedURL: String? {
    get { renderer.servedURL }
    set {
      renderer.servedURL = newValue
      try? redraw()
    }
  }

  /// The bundled demo: its length, for the heading's progress.
  public func showsDemo() {
    renderer.showsTime = true
    renderer.duration = DemoRecording.duration
  }

  /// Draws the last frame again, the whole screen: the terminal was
  /// resized, or asked for it (Ctrl-L), or may show something else.
  public func redraw() throws {
    screen.invalidate()
    try draw()
  }

  /// Sends what the last frame changes on the screen; nothing when it changes nothing.
  @inline(never)
  private func draw() throws {
    guard let last else { return }
    let started = ThreadCPUClock.now()
    let size = TerminalMode.size() ?? (80, 24)
    let bytes = screen.update(last, renderer: renderer, columns: size.columns, rows: size.rows)
    if !bytes.isEmpty {
      try output.append { $0.append(contentsOf: bytes) }
      try output.flush()
    }
    pacing.record(cost: ThreadCPUClock.now() - started)
    drawnAt = .now
    drawnKey = Self.key(last)
    pending = false
  }

  public func finish() throws {
    mode.restore()
  }
}
