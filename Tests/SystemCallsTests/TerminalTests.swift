import Glibc
import Testing

@testable import SystemCalls

/// The terminal API on a pseudo-terminal.
@Suite struct TerminalTests {
  /// A pty pair: the controlling side and the terminal a program sees.
  struct Pty {
    let controller: Int32
    let terminal: Int32

    /// What `posix_openpt`, `unlockpt` and `ptsname` do on Linux (they are not in
    /// the Glibc module), with the asm-generic ioctl numbers TIOCSPTLCK and TIOCGPTN.
    init() throws {
      controller = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
      try #require(controller >= 0, "no /dev/ptmx")
      var unlock: Int32 = 0
      try #require(ioctl(controller, UInt(0x4004_5431), &unlock) == 0)
      var number: UInt32 = 0
      try #require(ioctl(controller, UInt(0x8004_5430), &number) == 0)
      terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
      try #require(terminal >= 0)
    }

    func close() {
      Syscall.close(terminal)
      Syscall.close(controller)
    }
  }

  @Test func aPtyIsATerminalAndAPipeIsNot() throws {
    let pty = try Pty()
    defer { pty.close() }
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    defer {
      Syscall.close(ends[0])
      Syscall.close(ends[1])
    }
    #expect(Terminal.isTerminal(pty.terminal))
    #expect(!Terminal.isTerminal(ends[0]))
    #expect(throws: Errno.notTypewriter) { try Terminal.settings(of: ends[0]) }
    #expect(Terminal.size(of: ends[0]) == nil)
  }

  @Test func sizeIsWhatTheControllerSet() throws {
    let pty = try Pty()
    defer { pty.close() }
    var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
    try #require(ioctl(pty.controller, UInt(TIOCSWINSZ), &size) == 0)
    let read = try #require(Terminal.size(of: pty.terminal))
    #expect(read.columns == 80 && read.rows == 24)
  }

  @Test func rawInputKeepsSignalsAndIsRestored() throws {
    let pty = try Pty()
    defer { pty.close() }
    let saved = try Terminal.settings(of: pty.terminal)
    #expect(saved.raw.c_lflag & tcflag_t(ICANON | ECHO) != 0)
    try Terminal.apply(saved.rawInputKeepingSignals(), to: pty.terminal)
    let raw = try Terminal.settings(of: pty.terminal).raw
    #expect(raw.c_lflag & tcflag_t(ICANON | ECHO) == 0)
    #expect(raw.c_lflag & tcflag_t(ISIG) != 0)
    #expect(raw.c_oflag & tcflag_t(OPOST | ONLCR) == tcflag_t(OPOST | ONLCR))
    try Terminal.apply(saved, to: pty.terminal)
    #expect(try Terminal.settings(of: pty.terminal).raw.c_lflag == saved.raw.c_lflag)
  }
}
