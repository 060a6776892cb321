import SystemCalls

/// The terminal set up for the live view: raw input (keys arrive one byte at
/// a time, no echo; Ctrl-C still raises SIGINT), the alternate screen and a
/// hidden cursor. ``restore()`` puts everything back; it runs at most once,
/// also from a signal handler installed by ``restoreOnSignals()``.
///
/// Not thread-safe (not `Sendable`): one terminal mode, used from one thread.
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
    TerminalRescue.arm(
      input: input, output: output, settings: saved, leave: Array(Self.leaveSequence.utf8))
    write(Self.enterSequence)
  }

  /// Restores the saved settings, the main screen and the cursor. Safe to call twice.
  public func restore() {
    guard entered else { return }
    entered = false
    write(Self.leaveSequence)
    try? Terminal.apply(saved, to: input)
    TerminalRescue.disarm()
  }

  deinit { restore() }

  /// Installs handlers for SIGINT and SIGTERM that restore the terminal and
  /// then die of the signal as usual. For callers that do not handle those
  /// signals themselves (a caller with a signalfd calls ``restore()`` instead).
  ///
  /// The handler is async-signal-safe: it touches only what ``enter()``
  /// prepared (the descriptors, the saved settings, the leave sequence), as
  /// SystemCalls' `TerminalRescue` keeps them. It is installed the way
  /// SystemCalls' signal pipe installs its own, so the event loop restores
  /// what was there before it when it ends.
  public static func restoreOnSignals() {
    TerminalRescue.installHandler(for: [SignalNumber.interrupt, SignalNumber.terminate])
  }

  /// Best effort: a terminal that is gone needs no escape sequences.
  private func write(_ text: String) {
    try? Syscall.writeAll(output, Array(text.utf8), badDescriptor: .isError)
  }
}
