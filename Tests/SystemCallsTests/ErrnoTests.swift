import Glibc
import Testing

@testable import SystemCalls

/// Errors carry errno and read like strerror(3).
@Suite struct ErrnoTests {
  @Test func descriptionIsStrerrorAndTheCName() {
    #expect(Errno.noSuchFile.description == "No such file or directory (ENOENT)")
    #expect(Errno.noDevice.description == "No such device (ENODEV)")
    #expect(Errno.brokenPipe.description == "Broken pipe (EPIPE)")
    #expect(Errno.busy.message == "Device or resource busy")
    #expect(Errno(rawValue: EADDRINUSE).description == "Address already in use")
  }

  @Test func constantsAreTheCValues() {
    #expect(Errno.brokenPipe.rawValue == EPIPE)
    #expect(Errno.busy.rawValue == EBUSY)
    #expect(Errno.noSpace.rawValue == ENOSPC)
    #expect(Errno.diskQuotaExceeded.rawValue == EDQUOT)
    #expect(Errno.wouldBlock.rawValue == EWOULDBLOCK)
  }

  @Test func aFailedOpenThrowsItsErrno() {
    #expect(throws: Errno.noSuchFile) {
      try Syscall.openForReading("/nonexistent-tilt-test/file")
    }
    #expect(throws: Errno.isDirectory) { try Syscall.open("/", .writeOnly) }
  }

  @Test func systemCallErrorSaysWhatFailed() {
    let error = SystemCallError("poll failed", errno: .interrupted)
    #expect(error.description == "poll failed: Interrupted system call (EINTR)")
  }
}

@Suite struct ConstantTests {
  @Test func signalsAndDescriptorsAreTheCValues() {
    #expect(SignalNumber.interrupt == SIGINT && SignalNumber.terminate == SIGTERM)
    #expect(SignalNumber.windowChange == SIGWINCH && SignalNumber.brokenPipe == SIGPIPE)
    #expect(StandardDescriptor.input == 0 && StandardDescriptor.output == 1)
    #expect(StandardDescriptor.error == 2)
  }
}
