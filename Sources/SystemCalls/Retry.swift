import Glibc

/// The one retry loop for C calls that can fail, as swift-nio's
/// `syscall(blocking:)` and swift-system's `valueOrErrno(retryOnInterrupt:)`:
/// `EINTR` is retried, `EAGAIN` comes back as `nil` (a value, not an error),
/// `EBADF` and `EFAULT` are bugs in tilt (a precondition) unless the caller
/// says a bad descriptor can come from outside, and every other error is
/// thrown as an ``Errno``.
extension Syscall {
  /// Whether `EBADF` is a bug in tilt (the default) or an error to throw (a
  /// descriptor that another library may have closed).
  package enum BadDescriptor: Sendable {
    case isBug, isError
  }

  /// Calls `attempt` until it ends other than with `EINTR`: its value, or
  /// `nil` for `EAGAIN`/`EWOULDBLOCK`. `operation` names the C call in the
  /// precondition's message.
  package static func retrying<Value>(
    _ operation: String, badDescriptor: BadDescriptor = .isBug,
    _ attempt: () -> Result<Value, Errno>
  ) throws(Errno) -> Value? {
    while true {
      switch attempt() {
      case .success(let value):
        return value
      case .failure(let error):
        if error == .interrupted { continue }
        if error == .wouldBlock { return nil }
        if badDescriptor == .isError && error == .badFileDescriptor { throw error }
        try checkNotProgrammerError(error, operation)
        throw error
      }
    }
  }

  /// A C call that returns -1 (any negative value) and sets `errno` on
  /// failure: its result, or `nil` for `EAGAIN` on a non-blocking descriptor.
  package static func nonBlocking<Integer: FixedWidthInteger>(
    _ operation: String, badDescriptor: BadDescriptor = .isBug, _ call: () -> Integer
  ) throws(Errno) -> Integer? {
    try retrying(operation, badDescriptor: badDescriptor) {
      let result = call()
      return result < 0 ? .failure(.current) : .success(result)
    }
  }

  /// A C call that returns -1 (any negative value) and sets `errno` on
  /// failure, on a call that does not return `EAGAIN` but to say it failed:
  /// its result.
  @discardableResult
  package static func checked<Integer: FixedWidthInteger>(
    _ operation: String, badDescriptor: BadDescriptor = .isBug, _ call: () -> Integer
  ) throws(Errno) -> Integer {
    guard let result = try nonBlocking(operation, badDescriptor: badDescriptor, call) else {
      throw Errno.wouldBlock
    }
    return result
  }

  /// A call of a library that returns `-errno` on failure (libevdev): its
  /// non-negative result, or `nil` for `-EAGAIN`.
  package static func negativeErrno(
    _ operation: String, badDescriptor: BadDescriptor = .isBug, _ call: () -> Int32
  ) throws(Errno) -> Int32? {
    try retrying(operation, badDescriptor: badDescriptor) {
      let result = call()
      return result < 0 ? .failure(Errno(rawValue: -result)) : .success(result)
    }
  }

  /// Stops with a message when `error` can only be a bug in tilt (`EBADF`: a
  /// descriptor used after close; `EFAULT`: a bad pointer).
  package static func checkNotProgrammerError(_ error: Errno, _ operation: String) throws(Errno) {
    precondition(
      error != .badFileDescriptor && error != .badAddress,
      "\(operation): \(error): a bug in tilt, not in the device")
  }
}

extension Errno {
  /// Runs `call`, a C function that returns `NULL` and may set `errno` on
  /// failure (libmicrohttpd's `MHD_start_daemon`), with `errno` cleared
  /// first: its result, and the `errno` it left when it returned `nil`.
  package static func capture<Value>(_ call: () -> Value?) -> (value: Value?, errno: Errno?) {
    errno = 0
    let value = call()
    let error = errno
    return (value, value == nil && error != 0 ? Errno(rawValue: error) : nil)
  }
}
