import Glibc

/// Byte searches in memory, through the C library's vectorized `memchr`.
package enum Memory {
  /// The offset of the first `byte` in `bytes` (`memchr`), or `nil`.
  package static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Int? {
    guard let base = bytes.baseAddress, bytes.count > 0,
      let found = memchr(base, Int32(byte), bytes.count)
    else { return nil }
    return UnsafeRawPointer(found) - base
  }
}
