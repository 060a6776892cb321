import Glibc
import Testing

@testable import SystemCalls

/// The one retry loop: `EINTR` retried, `EAGAIN` a value, other errors thrown.
@Suite struct RetryTests {
  /// A fake C call that fails with the given errnos first, then returns 7.
  final class FakeCall {
    var failures: [Int32]
    var calls = 0
    init(failing failures: [Int32]) { self.failures = failures }

    func callReturningMinusOne() -> Int32 {
      calls += 1
      guard !failures.isEmpty else { return 7 }
      errno = failures.removeFirst()
      return -1
    }

    func callReturningNegativeErrno() -> Int32 {
      calls += 1
      return failures.isEmpty ? 7 : -failures.removeFirst()
    }
  }

  @Test func interruptedCallsAreRetried() throws {
    let call = FakeCall(failing: [EINTR, EINTR])
    #expect(try Syscall.checked("fake") { call.callReturningMinusOne() } == 7)
    #expect(call.calls == 3)
  }

  @Test func wouldBlockIsAValueNotAnError() throws {
    let call = FakeCall(failing: [EINTR, EAGAIN])
    #expect(try Syscall.nonBlocking("fake") { call.callReturningMinusOne() } == nil)
    #expect(call.calls == 2)
  }

  @Test func wouldBlockIsThrownWhereTheCallCannotBlock() {
    let call = FakeCall(failing: [EAGAIN])
    #expect(throws: Errno.wouldBlock) {
      try Syscall.checked("fake") { call.callReturningMinusOne() }
    }
  }

  @Test func otherErrorsAreThrownWithTheirErrno() {
    let call = FakeCall(failing: [EINTR, ENOENT])
    #expect(throws: Errno.noSuchFile) {
      try Syscall.checked("fake") { call.callReturningMinusOne() }
    }
    #expect(call.calls == 2)
  }

  @Test func aBadDescriptorFromOutsideIsAnError() {
    let call = FakeCall(failing: [EBADF])
    #expect(throws: Errno.badFileDescriptor) {
      try Syscall.checked("fake", badDescriptor: .isError) { call.callReturningMinusOne() }
    }
  }

  @Test func negativeErrnoCallsAreRetriedLikeLibevdevs() throws {
    let call = FakeCall(failing: [EINTR, EINTR])
    #expect(try Syscall.negativeErrno("fake") { call.callReturningNegativeErrno() } == 7)
    #expect(call.calls == 3)
    let blocked = FakeCall(failing: [EINTR, EAGAIN])
    #expect(try Syscall.negativeErrno("fake") { blocked.callReturningNegativeErrno() } == nil)
    let gone = FakeCall(failing: [ENODEV])
    #expect(throws: Errno.noDevice) {
      try Syscall.negativeErrno("fake") { gone.callReturningNegativeErrno() }
    }
  }

  @Test func capturedErrnoIsTheOneTheCallLeft() {
    let failed: (value: Int?, errno: Errno?) = Errno.capture {
      errno = EADDRINUSE
      return nil
    }
    #expect(failed.value == nil && failed.errno == Errno(rawValue: EADDRINUSE))
    let refused: (value: Int?, errno: Errno?) = Errno.capture { nil }
    #expect(refused.errno == nil)
    let done: (value: Int?, errno: Errno?) = Errno.capture {
      errno = ENOENT
      return 3
    }
    #expect(done.value == 3 && done.errno == nil)
  }
}
