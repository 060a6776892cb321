/// Appends decimal numbers with a fixed count of decimals as ASCII, without
/// Foundation: fast, deterministic and always valid JSON.
enum FixedDecimal {
  /// The most bytes one number takes: a sign, 13 integer digits (the clamp
  /// at 10¹²), the point and 7 decimals, and room to spare.
  static let maximumLength = 24

  /// 10^decimals for 0…7 decimals (10¹² · 10⁷ still fits a `UInt64`).
  @inline(__always)
  static func powerOfTen(_ decimals: Int) -> UInt64 {
    var p: UInt64 = 1
    for _ in 0..<decimals { p &*= 10 }
    return p
  }

  /// Appends `value` rounded half away from zero to `decimals` (0…7) places.
  /// A non-finite value is written as 0 (so the output is always JSON), and
  /// magnitudes beyond 10¹² are clamped; negative zero prints without a sign.
  static func append(_ value: Double, decimals: Int, to out: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { buffer in
      let count = write(value, decimals: decimals, at: buffer.baseAddress!)
      out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: count))
    }
  }

  /// Writes `value` as ``append(_:decimals:to:)`` does at `start`, which has
  /// room for ``maximumLength`` bytes; returns how many it wrote. Inlined
  /// where `decimals` is a constant, its divisions become multiplications.
  @inline(__always)
  static func write(_ value: Double, decimals: Int, at start: UnsafeMutablePointer<UInt8>) -> Int {
    let divisor = powerOfTen(decimals)
    var v = value.isFinite ? value : 0
    v = min(max(v, -1e12), 1e12)
    let units = roundedHalfUp(abs(v) * Double(divisor))
    var count = 0
    if units != 0 && v < 0 {
      start[0] = UInt8(ascii: "-")
      count = 1
    }
    var integer = units / divisor
    var digits = 1
    var limit: UInt64 = 10
    while digits < 13 && integer >= limit {
      limit &*= 10
      digits += 1
    }
    writeDigits(&integer, count: digits, endingAt: start + count + digits - 1)
    count += digits
    guard decimals > 0 else { return count }
    start[count] = UInt8(ascii: ".")
    var fraction = units % divisor
    writeDigits(&fraction, count: decimals, endingAt: start + count + decimals)
    return count + 1 + decimals
  }

  /// `x` (0 ≤ x < 2⁶⁴) rounded half away from zero, as
  /// `x.rounded(.toNearestOrAwayFromZero)` is, without libm's `round()`
  /// (a call on a CPU without SSE4.1, such as QEMU's default one): below
  /// 2⁵², `x` minus its integer part is exact; above, `x` is an integer.
  @inline(__always)
  static func roundedHalfUp(_ x: Double) -> UInt64 {
    let integer = UInt64(x)
    return x - Double(integer) >= 0.5 ? integer + 1 : integer
  }

  /// "00", "01", … "99".
  private static let pairs: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

  /// Writes the last `count` decimal digits of `value` backwards from `last`,
  /// two at a time.
  @inline(__always)
  private static func writeDigits(
    _ value: inout UInt64, count: Int, endingAt last: UnsafeMutablePointer<UInt8>
  ) {
    var p = last
    var left = count
    while left >= 2 {
      let pair = 2 * Int(truncatingIfNeeded: value % 100)
      value /= 100
      p[0] = pairs.utf8Start[pair + 1]
      p[-1] = pairs.utf8Start[pair]
      p -= 2
      left -= 2
    }
    if left == 1 {
      p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
    }
  }

  /// The text of `value` as `append` writes it.
  static func string(_ value: Double, decimals: Int) -> String {
    var out: [UInt8] = []
    append(value, decimals: decimals, to: &out)
    return String(decoding: out, as: UTF8.self)
  }
}
