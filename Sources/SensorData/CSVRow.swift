import func Glibc.vsnprintf

extension CSVColumns {
  /// One row of a log as tilt writes it: the values of ``header(hasGyroscope:)``'s
  /// columns in that order, each with `%.9g` (nine significant digits),
  /// comma-separated and newline-terminated.
  public static func row(_ values: [Double]) -> String {
    values.map(formatted).joined(separator: ",") + "\n"
  }

  /// `value` as `printf`'s `%.9g` writes it.
  static func formatted(_ value: Double) -> String {
    var buffer = [CChar](repeating: 0, count: 32)
    let count = buffer.count
    _ = withVaList([value]) { arguments in
      buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, count, "%.9g", arguments) }
    }
    return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }
}
