/// A cursor over the bytes of one text line, for parsing numbers without
/// making Strings.
struct ByteScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  var atEnd: Bool { index >= bytes.count }

  /// Whether only a comment or nothing is left (after blanks).
  mutating func atEndOrComment() -> Bool {
    skipBlanks()
    return atEnd || bytes[index] == UInt8(ascii: "#")
  }

  mutating func skipBlanks() {
    while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
  }

  /// Whether the next byte is a blank, or the line ended.
  var atBlankOrEnd: Bool {
    atEnd || bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == UInt8(ascii: "#")
  }

  mutating func consume(_ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  enum NumberResult: Equatable {
    case value(Int64, digits: Int)
    case missing
    case tooBig
  }

  /// Decimal digits as an unsigned number; at most 18 digits fit.
  mutating func decimal() -> NumberResult {
    var value: Int64 = 0
    var digits = 0
    while index < bytes.count {
      let d = bytes[index] &- 0x30
      guard d < 10 else { break }
      if digits >= 18 { return .tooBig }
      value = value * 10 + Int64(d)
      digits += 1
      index += 1
    }
    return digits == 0 ? .missing : .value(value, digits: digits)
  }

  /// Hex digits (no `0x`) as an unsigned number; at most 15 digits fit.
  mutating func hex() -> NumberResult {
    var value: Int64 = 0
    var digits = 0
    while index < bytes.count {
      let b = bytes[index]
      let d: UInt8
      switch b {
      case 0x30...0x39: d = b - 0x30
      case 0x61...0x66: d = b - 0x61 + 10
      case 0x41...0x46: d = b - 0x41 + 10
      default: d = 0xFF
      }
      guard d != 0xFF else { break }
      if digits >= 15 { return .tooBig }
      value = value << 4 | Int64(d)
      digits += 1
      index += 1
    }
    return digits == 0 ? .missing : .value(value, digits: digits)
  }

  /// An optionally signed decimal number.
  mutating func signedDecimal() -> NumberResult {
    var negative = false
    if consume(UInt8(ascii: "-")) {
      negative = true
    } else {
      _ = consume(UInt8(ascii: "+"))
    }
    switch decimal() {
    case .value(let v, let digits): return .value(negative ? -v : v, digits: digits)
    case let other: return other
    }
  }

  /// The current word (up to a blank), for messages.
  func word() -> String {
    var end = index
    while end < bytes.count, bytes[end] != 0x20, bytes[end] != 0x09 { end += 1 }
    let slice = UnsafeBufferPointer(rebasing: bytes[index..<min(end, index + 24)])
    return String(decoding: slice, as: UTF8.self)
  }
}
