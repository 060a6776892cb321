import Glibc
import Testing

@testable import SystemCalls

/// Files and pipes through SystemCalls.
@Suite struct FileTests {
  @Test func temporaryFileReadsBackWhatItHolds() throws {
    let fd = try Syscall.temporaryFile(holding: Array("two\nlines\n".utf8))
    defer { Syscall.close(fd) }
    #expect(try Syscall.fileKind(fd) == .regular)
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = try buffer.withUnsafeMutableBytes { raw throws(Errno) in
      try Syscall.read(fd, into: raw)
    }
    #expect(count.map { String(decoding: buffer[..<$0], as: UTF8.self) } == "two\nlines\n")
  }

  @Test func writtenFileIsRenamedAndReadWhole() throws {
    let directory = SystemInfo.environment("TMPDIR") ?? "/tmp"
    let (fd, path) = try Syscall.makeTemporaryFile(prefix: directory + "/tilt-syscalls-")
    let target = path + ".done"
    defer {
      Syscall.unlinkIfPresent(path)
      Syscall.unlinkIfPresent(target)
    }
    try Syscall.writeAll(fd, Array(repeating: 0x61, count: 10_000))
    try Syscall.fsync(fd)
    Syscall.close(fd)
    try Syscall.rename(path, target)
    #expect(try Syscall.fileKind(target) == .regular)
    #expect(try Syscall.readSmallFile(target) == Array(repeating: 0x61, count: 10_000))
    #expect(throws: Errno.noSuchFile) { try Syscall.readSmallFile(path) }
  }

  @Test func createdFileIsTruncatedAndHasItsPermissions() throws {
    let directory = SystemInfo.environment("TMPDIR") ?? "/tmp"
    let path = "\(directory)/tilt-syscalls-create-\(getpid())"
    defer { Syscall.unlinkIfPresent(path) }
    let first = try Syscall.create(path, permissions: 0o600)
    try Syscall.writeAll(first, Array("longer text".utf8))
    Syscall.close(first)
    let second = try Syscall.create(path, permissions: 0o644)
    try Syscall.writeAll(second, Array("short".utf8))
    Syscall.close(second)
    #expect(Syscall.readSmallTextFile(path) == "short")
    var status = stat()
    try #require(stat(path, &status) == 0)
    #expect(status.st_mode & 0o777 == 0o600)  // an existing file keeps its mode
  }

  @Test func directoryAndCharacterDevice() throws {
    #expect(try Syscall.fileKind("/") == .directory)
    #expect(try Syscall.characterDeviceNumber("/dev/null")! == (1, 3))
    #expect(try Syscall.characterDeviceNumber("/") == nil)
  }

  @Test func pipeReadsAvailableBytesAndWouldBlockAsNil() throws {
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
    defer {
      Syscall.close(ends[0])
      Syscall.close(ends[1])
    }
    #expect(Syscall.isPipe(ends[0]))
    #expect(Syscall.readAvailable(ends[0]) == [])
    var buffer = [UInt8](repeating: 0, count: 4)
    #expect(
      try buffer.withUnsafeMutableBytes { raw throws(Errno) in try Syscall.read(ends[0], into: raw)
      }
        == nil)
    try Syscall.writeAll(ends[1], [1, 2, 3])
    #expect(Syscall.readAvailable(ends[0], limit: 2) == [1, 2])
    #expect(Syscall.readAvailable(ends[0]) == [3])
  }

  @Test func writeToAPipeWithNoReaderIsBrokenPipe() throws {
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    Syscall.close(ends[0])
    defer { Syscall.close(ends[1]) }
    let previous = signal(SIGPIPE, SIG_IGN)
    defer { signal(SIGPIPE, previous) }
    #expect(throws: Errno.brokenPipe) { try Syscall.writeAll(ends[1], [1]) }
  }

  @Test func memoryFindsTheFirstByte() {
    let bytes: [UInt8] = [5, 0, 10, 10]
    bytes.withUnsafeBytes { raw in
      #expect(Memory.firstIndex(of: 10, in: raw) == 2)
      #expect(Memory.firstIndex(of: 0, in: raw) == 1)
      #expect(Memory.firstIndex(of: 9, in: raw) == nil)
      #expect(Memory.firstIndex(of: 5, in: UnsafeRawBufferPointer(rebasing: raw[1...])) == nil)
    }
  }

  @Test func environmentAndKernel() {
    #expect(SystemInfo.environment("TILT_SURELY_UNSET_VARIABLE") == nil)
    #expect(SystemInfo.environment("PATH") != nil)
    #expect(SystemInfo.kernelRelease()?.isEmpty == false)
  }
}
