/// Little-endian reading and writing of the DSU protocol's integers and floats.
extension [UInt8] {
  mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
    Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
  }

  mutating func appendLittleEndian(_ value: Float) { appendLittleEndian(value.bitPattern) }

  mutating func setLittleEndian(_ value: UInt32, at offset: Int) {
    for index in 0..<4 { self[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
  }
}

extension ArraySlice<UInt8> {
  /// The integer at `offset` from the slice's start; the caller checked the size.
  func littleEndian<T: FixedWidthInteger>(at offset: Int, as type: T.Type = T.self) -> T {
    var value: T = 0
    let start = startIndex + offset
    for index in 0..<(T.bitWidth / 8) {
      value |= T(truncatingIfNeeded: self[start + index]) << (8 * index)
    }
    return value
  }
}
