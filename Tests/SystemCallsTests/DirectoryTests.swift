import Foundation
import Glibc
import Testing

@testable import SystemCalls

/// Directories, links and paths, checked against what Foundation gave before.
@Suite struct DirectoryTests {
  @Test func entriesAreFoundationsWithoutDotAndDotDot() throws {
    let entries = try Syscall.directoryEntries("/dev").sorted()
    let foundation = try FileManager.default.contentsOfDirectory(atPath: "/dev").sorted()
    #expect(entries == foundation)
    #expect(!entries.contains(".") && !entries.contains(".."))
  }

  @Test func aMissingDirectoryThrowsItsErrno() {
    #expect(throws: Errno.noSuchFile) { try Syscall.directoryEntries("/nonexistent-tilt-test") }
    #expect(throws: Errno(rawValue: ENOTDIR)) { try Syscall.directoryEntries("/dev/null") }
  }

  @Test func linkDestinationIsAsWritten() throws {
    let directory = SystemInfo.environment("TMPDIR") ?? "/tmp"
    let link = "\(directory)/tilt-syscalls-link-\(getpid())"
    try #require(symlink("../../bus/hid/drivers/sony", link) == 0)
    defer { Syscall.unlinkIfPresent(link) }
    #expect(try Syscall.symbolicLinkDestination(link) == "../../bus/hid/drivers/sony")
    #expect(throws: Errno.invalidArgument) { try Syscall.symbolicLinkDestination("/dev/null") }
  }

  @Test func smallTextFileIsNilWhenUnreadableOrNotText() throws {
    #expect(Syscall.readSmallTextFile("/nonexistent-tilt-test") == nil)
    let directory = SystemInfo.environment("TMPDIR") ?? "/tmp"
    let (fd, path) = try Syscall.makeTemporaryFile(prefix: directory + "/tilt-syscalls-")
    defer { Syscall.unlinkIfPresent(path) }
    try Syscall.writeAll(fd, [0x41, 0xFF, 0x42])
    Syscall.close(fd)
    #expect(Syscall.readSmallTextFile(path) == nil)
    let written = Syscall.readSmallTextFile("/proc/sys/kernel/ostype")
    #expect(written == "Linux\n")
  }

  /// What `NSString`'s path methods gave where Foundation did the paths.
  @Test func pathsAsNSStringGaveThem() {
    #expect(parentPath("/sys/bus/iio/devices/iio:device0") == "/sys/bus/iio/devices")
    #expect(parentPath("/sys/bus/iio/devices/iio:device0/") == "/sys/bus/iio/devices")
    #expect(parentPath("/x") == "/")
    #expect(parentPath("x") == "")
    #expect(joinedPath("/run/udev/data", "c13:64") == "/run/udev/data/c13:64")
    #expect(joinedPath("/run/udev/data/", "c13:64") == "/run/udev/data/c13:64")
    #expect(joinedPath("", "c13:64") == "c13:64")
    #expect(lastPathComponent("../../../bus/hid/drivers/sony") == "sony")
    #expect(lastPathComponent("sony") == "sony")
  }
}
