import Glibc
import SystemCalls

/// The terminal set up for the live view: raw input (keys arrive one byte at
/// a time, no echo; Ctrl-C still raises SIGINT), the alternate screen and a
/// hidden cursor. ``restore()`` puts everything back; it runs at most once,
/// also from a signal handler installed by ``restoreOnSignals()``.
public final class TerminalMode {
  /// A failed terminal call, worded for the person running the command.
  public struct Failure: Error, CustomStringConvertible, Hashable, Sendable {
    public var description: String
  }

  public let input: Int32
  public let output: Int32
  private var saved = termios()
  private var entered = false

  static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
  static let leaveSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

  public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
    self.input = input
    self.output = output
  }

  /// Whether `fd` is a terminal.
  public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

  /// The size of the terminal on `fd` in cells; `nil` when it isn't one.
  public static func size(of fd: Int32 = STDOUT_FILENO) -> (columns: Int, rows: Int)? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return nil
    }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// Saves the terminal settings, then switches to raw input, the alternate
  /// screen and a hidden cursor.
  public func enter() throws(Failure) {
    guard !entered else { return }
    guard tcgetattr(input, &saved) == 0 else {
      throw Failure(
        description:
          "cannot use the terminal view: standard input is not a terminal (\(Errno.current.message)); use --format jsonl"
      )
    }
    var raw = saved
    cfmakeraw(&raw)
    raw.c_lflag |= tcflag_t(ISIG)
    raw.c_oflag |= tcflag_t(OPOST | ONLCR)
    guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
      throw Failure(
        description: "cannot set the terminal to raw mode: \(Errno.current.message)")
    }
    entered = true
    TerminalMode.arm(input: input, settings: saved, output: output)
    write(Self.enterSequence)
  }

  /// Restores the saved settings, the main screen and the cursor. Safe to call twice.
  public func restore() {
    guard entered else { return }
    entered = false
    write(Self.leaveSequence)
    _ = withUnsafePointer(to: &saved) { tcsetattr(input, TCSAFLUSH, $0) }
    TerminalMode.disarm()
  }

  deinit { restore() }

  /// Installs handlers for SIGINT and SIGTERM that restore the terminal and
  /// then die of the signal as usual. For callers that do not handle those
  /// signals themselves (a caller with a signalfd calls ``restore()`` instead).
  ///
  /// The handler is async-signal-safe: it touches only bytes prepared by
  /// ``enter()`` (the descriptors, the saved settings, the leave sequence) and
  /// calls only `write`, `tcsetattr`, `sigaction` and `raise`. It is installed
  /// with `sigaction`, as ``SystemCalls``' signal pipe installs its own; the
  /// event loop restores what was there before it when it ends.
  public static func restoreOnSignals() {
    _ = emergencyState  // made here, never first in the handler
    installSignalHandler(
      { received in
        let state = TerminalMode.emergencyState
        if state.pointee.armed != 0 {
          withUnsafeMutablePointer(to: &state.pointee.leave) { leave in
            _ = Glibc.write(state.pointee.output, leave, Int(state.pointee.leaveCount))
          }
          _ = tcsetattr(state.pointee.input, TCSAFLUSH, &state.pointee.settings)
        }
        resetSignalToDefault(received)
        raiseSignal(received)
      }, for: [SIGINT, SIGTERM])
  }

  /// What the signal handler restores, in memory that never moves or frees.
  struct EmergencyState {
    var armed: Int32 = 0
    var input: Int32 = -1
    var output: Int32 = -1
    var settings = termios()
    var leave: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    var leaveCount: Int32 = 0
  }

  nonisolated(unsafe) static let emergencyState: UnsafeMutablePointer<EmergencyState> = {
    let state = UnsafeMutablePointer<EmergencyState>.allocate(capacity: 1)
    state.initialize(to: EmergencyState())
    let bytes = Array(leaveSequence.utf8)
    precondition(bytes.count <= MemoryLayout<(UInt64, UInt64, UInt64, UInt64)>.size)
    withUnsafeMutableBytes(of: &state.pointee.leave) { raw in
      raw.copyBytes(from: bytes)
    }
    state.pointee.leaveCount = Int32(bytes.count)
    return state
  }()

  /// The settings the handler puts back: set by ``enter()``, cleared by ``restore()``.
  static func arm(input: Int32, settings: termios, output: Int32) {
    let state = emergencyState
    state.pointee.armed = 0
    state.pointee.input = input
    state.pointee.output = output
    state.pointee.settings = settings
    state.pointee.armed = 1
  }

  static func disarm() { emergencyState.pointee.armed = 0 }

  private func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeMutableBytes {
        Glibc.write(output, $0.baseAddress! + offset, $0.count - offset)
      }
      if n < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += n
    }
    bytes.removeAll()
  }
}
