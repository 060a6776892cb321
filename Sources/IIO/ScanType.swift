import Foundation

/// How one channel sits in a scan, as `scan_elements/in_*_type` says it:
/// `le:s16/32>>0` is little-endian, signed, 16 bits of value in 32 bits of
/// storage, shifted right by 0 (Documentation/ABI/testing/sysfs-bus-iio,
/// `in_voltageY_type`). `X` and a count (`le:s12/16X4>>4`) repeat it.
public struct IIOScanType: Hashable, Sendable, CustomStringConvertible {
  public enum Endianness: Hashable, Sendable { case little, big }

  public var endianness: Endianness
  public var isSigned: Bool
  /// Bits of value (`realbits`).
  public var bits: Int
  /// Bits of storage, a power of two from 8 to 64.
  public var storageBits: Int
  /// How many values of this shape follow each other (1 for most channels).
  public var repeatCount: Int
  /// Right shift from the stored word to the value.
  public var shift: Int

  public init(
    endianness: Endianness, isSigned: Bool, bits: Int, storageBits: Int, repeatCount: Int = 1,
    shift: Int = 0
  ) {
    self.endianness = endianness
    self.isSigned = isSigned
    self.bits = bits
    self.storageBits = storageBits
    self.repeatCount = repeatCount
    self.shift = shift
  }

  /// Parses the kernel's text; throws what is wrong with it.
  public init(parsing text: String) throws(IIOFormatError) {
    let word = text.trimmingCharacters(in: .whitespacesAndNewlines)
    func fail(_ why: String) -> IIOFormatError {
      IIOFormatError("scan type \"\(word)\" \(why); the kernel writes it like \"le:s16/32>>0\"")
    }
    let parts = word.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2 else { throw fail("has no ':' after the endianness") }
    switch parts[0] {
    case "le": endianness = .little
    case "be": endianness = .big
    default: throw fail("has endianness '\(parts[0])', not le or be")
    }
    var rest = Substring(parts[1])
    guard let sign = rest.first, sign == "s" || sign == "u" else {
      throw fail("has no sign (s or u)")
    }
    isSigned = sign == "s"
    rest = rest.dropFirst()
    guard let shiftMark = rest.range(of: ">>") else { throw fail("has no '>>' shift") }
    guard let shift = Int(rest[shiftMark.upperBound...]), shift >= 0 else {
      throw fail("has a shift that is not a number")
    }
    self.shift = shift
    let sizes = rest[..<shiftMark.lowerBound]
    let slash = sizes.split(separator: "/", omittingEmptySubsequences: false)
    guard slash.count == 2, let bits = Int(slash[0]) else {
      throw fail("has no bits/storage sizes")
    }
    self.bits = bits
    let storage = slash[1].split(separator: "X", omittingEmptySubsequences: false)
    guard let storageBits = Int(storage[0]), storage.count <= 2 else {
      throw fail("has a storage size that is not a number")
    }
    self.storageBits = storageBits
    if storage.count == 2 {
      guard let count = Int(storage[1]), count >= 1 else { throw fail("has a bad repeat count") }
      repeatCount = count
    } else {
      repeatCount = 1
    }
    guard [8, 16, 32, 64].contains(storageBits) else {
      throw fail("stores \(storageBits) bits, not 8, 16, 32 or 64")
    }
    guard bits >= 1, bits + shift <= storageBits else {
      throw fail(
        "has \(bits) bits shifted by \(shift), more than its \(storageBits) bits of storage")
    }
  }

  /// Bytes of one stored word.
  public var wordBytes: Int { storageBits / 8 }
  /// Bytes the channel takes in a scan (every repeat).
  public var scanBytes: Int { wordBytes * repeatCount }

  /// The (first) value stored at `offset` of `scan`; `offset + wordBytes`
  /// must lie within it.
  public func value(in scan: UnsafeRawBufferPointer, at offset: Int) -> Int64 {
    var word: UInt64 = 0
    for i in 0..<wordBytes {
      let byte = UInt64(scan[offset + (endianness == .little ? wordBytes - 1 - i : i)])
      word = (word << 8) | byte
    }
    word >>= UInt64(shift)
    if bits < 64 {
      word &= (UInt64(1) << UInt64(bits)) - 1
      if isSigned, word & (UInt64(1) << UInt64(bits - 1)) != 0 {
        word |= ~((UInt64(1) << UInt64(bits)) - 1)
      }
    }
    return isSigned ? Int64(bitPattern: word) : Int64(truncatingIfNeeded: word)
  }

  public var description: String {
    let storage = repeatCount > 1 ? "\(storageBits)X\(repeatCount)" : "\(storageBits)"
    return
      "\(endianness == .little ? "le" : "be"):\(isSigned ? "s" : "u")\(bits)/\(storage)>>\(shift)"
  }
}

/// A sysfs attribute or scan that does not read as the kernel writes it.
public struct IIOFormatError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
