import Glibc
import Testing

@testable import SystemCalls

/// The terminal put back from a signal handler, on a pseudo-terminal. The
/// signal is SIGURG, whose default action is to ignore it: the test process
/// lives through the handler's second raise. Serialized: a signal's handler
/// belongs to the whole process.
@Suite(.serialized) struct TerminalRescueTests {
  static let leave = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

  /// Raises SIGURG on this thread, unblocked: it is handled before `raise` returns.
  func raiseUrgent() {
    var urgent = sigset_t()
    sigemptyset(&urgent)
    sigaddset(&urgent, SIGURG)
    pthread_sigmask(SIG_UNBLOCK, &urgent, nil)
    raise(SIGURG)
  }

  /// What the terminal side of `pty` wrote, waiting up to 5 s for the first bytes.
  func written(to pty: TerminalTests.Pty) throws -> [UInt8] {
    _ = try Poller.wait(for: [pty.controller], until: .now + .seconds(5))
    _ = fcntl(pty.controller, F_SETFL, fcntl(pty.controller, F_GETFL) | O_NONBLOCK)
    return Syscall.readAvailable(pty.controller, limit: 4096)
  }

  @Test func aSignalRestoresTheArmedTerminalThenTakesItsDefaultAction() throws {
    let pty = try TerminalTests.Pty()
    defer {
      TerminalRescue.disarm()
      resetSignalToDefault(SIGURG)
      pty.close()
    }
    let saved = try Terminal.settings(of: pty.terminal)
    try Terminal.apply(saved.rawInputKeepingSignals(), to: pty.terminal)
    TerminalRescue.arm(
      input: pty.terminal, output: pty.terminal, settings: saved, leave: Self.leave)
    TerminalRescue.installHandler(for: [SIGURG])

    raiseUrgent()
    #expect(try Terminal.settings(of: pty.terminal).raw.c_lflag == saved.raw.c_lflag)
    #expect(try written(to: pty) == Self.leave)

    // The handler set SIGURG back to its default: a second one changes nothing.
    try Terminal.apply(saved.rawInputKeepingSignals(), to: pty.terminal)
    raiseUrgent()
    #expect(try Terminal.settings(of: pty.terminal).raw.c_lflag & tcflag_t(ICANON) == 0)
  }

  @Test func aDisarmedRescueLeavesTheTerminalAlone() throws {
    let pty = try TerminalTests.Pty()
    defer {
      resetSignalToDefault(SIGURG)
      pty.close()
    }
    let saved = try Terminal.settings(of: pty.terminal)
    TerminalRescue.arm(
      input: pty.terminal, output: pty.terminal, settings: saved, leave: Self.leave)
    TerminalRescue.disarm()
    try Terminal.apply(saved.rawInputKeepingSignals(), to: pty.terminal)
    TerminalRescue.installHandler(for: [SIGURG])

    raiseUrgent()
    #expect(try Terminal.settings(of: pty.terminal).raw.c_lflag & tcflag_t(ICANON) == 0)
    try Terminal.apply(saved, to: pty.terminal)
  }
}
