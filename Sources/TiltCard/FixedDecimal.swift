/// Appends decimal numbers with a fixed count of decimals as ASCII, without
/// Foundation: fast, deterministic and always valid JSON.
enum FixedDecimal {
  static let powersOfTen: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

  /// Appends `value` rounded half away from zero to `decimals` (0…9) places.
  /// A non-finite value is written as 0 (so the output is always JSON), and
  /// magnitudes beyond 10¹² are clamped; negative zero prints without a sign.
  static func append(_ value: Double, decimals: Int, to out: inout [UInt8]) {
    let scale = powersOfTen[decimals]
    var v = value.isFinite ? value : 0
    v = min(max(v, -1e12), 1e12)
    let scaled = (abs(v) * scale).rounded(.toNearestOrAwayFromZero)
    var units = UInt64(scaled)
    if units != 0 && v < 0 { out.append(UInt8(ascii: "-")) }
    let divisor = UInt64(scale)
    let whole = units / divisor
    units %= divisor
    appendInteger(whole, to: &out)
    guard decimals > 0 else { return }
    out.append(UInt8(ascii: "."))
    var digits = [UInt8](repeating: UInt8(ascii: "0"), count: decimals)
    var i = decimals - 1
    while units > 0 && i >= 0 {
      digits[i] = UInt8(ascii: "0") + UInt8(units % 10)
      units /= 10
      i -= 1
    }
    out.append(contentsOf: digits)
  }

  static func appendInteger(_ value: UInt64, to out: inout [UInt8]) {
    if value == 0 {
      out.append(UInt8(ascii: "0"))
      return
    }
    var v = value
    let start = out.count
    while v > 0 {
      out.append(UInt8(ascii: "0") + UInt8(v % 10))
      v /= 10
    }
    out[start...].reverse()
  }

  /// The text of `value` as `append` writes it.
  static func string(_ value: Double, decimals: Int) -> String {
    var out: [UInt8] = []
    append(value, decimals: decimals, to: &out)
    return String(decoding: out, as: UTF8.self)
  }
}
