import SystemCalls

/// An sd-bus function that failed: which one, and the errno it returned
/// (sd-bus returns it negated). Its description reads like `strerror(3)`.
public struct BusError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The sd-bus function, `sd_bus_open_user` for example.
  public var function: String
  public var errno: Errno

  /// The error of `function`'s return value `result` (negative).
  init(_ function: String, _ result: Int32) {
    self.function = function
    errno = Errno(rawValue: -result)
  }

  public var description: String { "\(function): \(errno)" }
}

/// Throws a ``BusError`` when `result`, what an sd-bus function returned, is negative.
@discardableResult
func checked(_ function: String, _ result: Int32) throws(BusError) -> Int32 {
  guard result >= 0 else { throw BusError(function, result) }
  return result
}
