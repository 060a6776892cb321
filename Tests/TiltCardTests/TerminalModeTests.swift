import Glibc
import Testing

@testable import TiltCard

/// The terminal mode on a real pseudo-terminal.
@Suite struct TerminalModeTests {
  /// Opens a pty pair; returns (master, slave) descriptors.
  /// (posix_openpt and friends are not in the Glibc module: this is what
  /// they do on Linux, with the asm-generic ioctl numbers TIOCSPTLCK and TIOCGPTN.)
  func openPTY() throws -> (Int32, Int32) {
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    try #require(master >= 0, "no /dev/ptmx")
    var unlock: Int32 = 0
    try #require(ioctl(master, UInt(0x4004_5431), &unlock) == 0)
    var number: UInt32 = 0
    try #require(ioctl(master, UInt(0x8004_5430), &number) == 0)
    let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
    try #require(slave >= 0)
    return (master, slave)
  }

  func readAll(_ fd: Int32) -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    while true {
      let n = read(fd, &buffer, buffer.count)
      if n <= 0 { break }
      bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func rawModeAndRestore() throws {
    let (master, slave) = try openPTY()
    defer {
      close(master)
      close(slave)
    }
    var before = termios()
    tcgetattr(slave, &before)
    #expect(before.c_lflag & tcflag_t(ICANON) != 0)
    let mode = TerminalMode(input: slave, output: slave)
    try mode.enter()
    var raw = termios()
    tcgetattr(slave, &raw)
    #expect(raw.c_lflag & tcflag_t(ICANON) == 0, "keys arrive one at a time")
    #expect(raw.c_lflag & tcflag_t(ECHO) == 0)
    #expect(raw.c_lflag & tcflag_t(ISIG) != 0, "Ctrl-C still raises SIGINT")
    mode.restore()
    mode.restore()
    var after = termios()
    tcgetattr(slave, &after)
    #expect(after.c_lflag == before.c_lflag)
    let written = readAll(master)
    #expect(written.contains("\u{1B}[?1049h") && written.contains("\u{1B}[?25l"))
    #expect(written.contains("\u{1B}[?1049l") && written.contains("\u{1B}[?25h"))
  }

  @Test func sizeOfAPseudoTerminal() throws {
    let (master, slave) = try openPTY()
    defer {
      close(master)
      close(slave)
    }
    var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
    #expect(ioctl(master, UInt(TIOCSWINSZ), &size) == 0)
    let got = TerminalMode.size(of: slave)
    #expect(got?.columns == 100 && got?.rows == 30)
    #expect(TerminalMode.isTerminal(slave))
  }

  @Test func notATerminalSaysWhatToDo() throws {
    var fds: [Int32] = [0, 0]
    try #require(pipe(&fds) == 0)
    defer {
      close(fds[0])
      close(fds[1])
    }
    #expect(TerminalMode.size(of: fds[0]) == nil)
    let mode = TerminalMode(input: fds[0], output: fds[1])
    #expect(throws: TerminalMode.Failure.self) { try mode.enter() }
    do {
      try mode.enter()
    } catch {
      #expect(error.description.contains("--format jsonl"))
    }
  }
}
