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
  private var saved = TerminalSettings()
  private var entered = false

  static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
  static let leaveSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

  public init(input: Int32 = StandardDescriptor.input, output: Int32 = StandardDescriptor.output) {
    self.input = input
    self.output = output
  }

  /// Whether `fd` is a terminal.
  public static func isTerminal(_ fd: Int32) -> Bool { Terminal.isTerminal(fd) }

  /// The size of the terminal on `fd` in cells; `nil` when it isn't one.
  public static func size(of fd: Int32 = StandardDescriptor.output) -> (columns: Int, rows: Int)? {
    Terminal.size(of: fd)
  }

  /// Saves the terminal settings, then switches to raw input, the alternate
  /// screen and a hidden cursor.
  public func enter() throws(Failure) {
    guard !entered else { return }
    do {
      saved = try Terminal.settings(of: input)
    } catch {
      throw Failure(
        description:
          "cannot use the terminal view: standard input is not a terminal (\(error.message)); use --format jsonl"
      )
    }
    do {
      try Terminal.apply(saved.rawInputKeepingSignals(), to: input)
    } catch {
      throw Failure(description: "cannot set the terminal to raw mode: \(error.message)")
    }
    entered = true
    TerminalMode.arm(input: input, settings: saved.raw, output: output)
    write(Self.enterSequence)
  }

  /// Restores the saved settings, the main screen and the cursor. Safe to call twice.
  public func restore() {
    guard entered else { return }
    entered = false
    write(Self.leaveSequence)
    try? Terminal.apply(saved, to: input)
    TerminalMode.disarm()
  }

  deinit { restore() }

  /// Installs handlers for SIGINT and SIGTERM that restore the terminal and
  /// then die of the signal as usual. For callers that do not handle those
  /// signals themselves (a caller with a signalfd calls ``restore()`` instead).
  ///
  /// The handler is async-signal-safe: it touches only bytes prepared by
  /// ``enter()`` (the descriptors, the saved settings, the leave sequence) and
  /// calls only `write`, `tcsetattr`, `signal` and `raise`.
  public static func restoreOnSignals() {
    _ = emergencyState  // made here, never first in the handler
    for sig in [SIGINT, SIGTERM] {
      signal(sig) { received in
        let state = TerminalMode.emergencyState
        if state.pointee.armed != 0 {
          withUnsafeMutablePointer(to: &state.pointee.leave) { leave in
            _ = Glibc.write(state.pointee.output, leave, Int(state.pointee.leaveCount))
          }
          _ = tcsetattr(state.pointee.input, TCSAFLUSH, &state.pointee.settings)
        }
        signal(received, SIG_DFL)
        raise(received)
      }
    }
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

  /// Best effort: a terminal that is gone needs no escape sequences.
  private func write(_ text: String) {
    try? Syscall.writeAll(output, Array(text.utf8), badDescriptor: .isError)
  }
}
