/// Appends decimal numbers with a fixed count of decimals as ASCII, without
/// Foundation: fast, deterministic and always valid JSON.
enum FixedDecimal {
  /// 10^decimals for 0…9 decimals.
  @inline(__always)
  static func powerOfTen(_ decimals: Int) -> UInt64 {
    var p: UInt64 = 1
    for _ in 0..<decimals { p &*= 10 }
    return p
  }

  /// Appends `value` rounded half away from zero to `decimals` (0…9) places.
  /// A non-finite value is written as 0 (so the output is always JSON), and
  /// magnitudes beyond 10¹² are clamped; negative zero prints without a sign.
  static func append(_ value: Double, decimals: Int, to out: inout [UInt8]) {
    let divisor = powerOfTen(decimals)
    var v = value.isFinite ? value : 0
    v = min(max(v, -1e12), 1e12)
    let units = UInt64((abs(v) * Double(divisor)).rounded(.toNearestOrAwayFromZero))
    if units != 0 && v < 0 { out.append(UInt8(ascii: "-")) }
    appendInteger(units / divisor, to: &out)
    guard decimals > 0 else { return }
    out.append(UInt8(ascii: "."))
    var fraction = units % divisor
    let start = out.count
    for _ in 0..<decimals { out.append(UInt8(ascii: "0")) }
    var i = out.count - 1
    while fraction > 0 && i >= start {
      out[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
      fraction /= 10
      i -= 1
    }
  }

  static func appendInteger(_ value: UInt64, to out: inout [UInt8]) {
    var divisor: UInt64 = 1
    while divisor <= value / 10 { divisor &*= 10 }
    var rest = value
    while divisor > 0 {
      out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }

  /// The text of `value` as `append` writes it.
  static func string(_ value: Double, decimals: Int) -> String {
    var out: [UInt8] = []
    append(value, decimals: decimals, to: &out)
    return String(decoding: out, as: UTF8.self)
  }
}
