import Testing

@testable import IIO

@Suite struct ScanTypeTests {
  @Test(arguments: [
    ("le:s16/32>>0", IIOScanType(endianness: .little, isSigned: true, bits: 16, storageBits: 32)),
    (
      "be:u12/16>>4",
      IIOScanType(endianness: .big, isSigned: false, bits: 12, storageBits: 16, shift: 4)
    ),
    ("le:s64/64>>0", IIOScanType(endianness: .little, isSigned: true, bits: 64, storageBits: 64)),
    (
      "le:s12/16X4>>4",
      IIOScanType(
        endianness: .little, isSigned: true, bits: 12, storageBits: 16, repeatCount: 4, shift: 4)
    ),
  ])
  func parses(text: String, expected: IIOScanType) throws {
    let type = try IIOScanType(parsing: text + "\n")
    #expect(type == expected)
    #expect(type.description == text)
  }

  @Test(arguments: [
    "", "xx:s16/32>>0", "le:q16/32>>0", "le:s16/24>>0", "le:s16/16>>4", "le:s16/32",
    "le:s0/16>>0", "le:s16/abc>>0",
  ])
  func rejects(text: String) {
    #expect(throws: IIOFormatError.self) { try IIOScanType(parsing: text) }
  }

  @Test func signExtendsAfterShiftAndMask() throws {
    // be:s12/16>>4 holding -3 in its top 12 bits, junk in the low 4.
    let type = try IIOScanType(parsing: "be:s12/16>>4")
    let raw = UInt16(bitPattern: Int16(-3) << 4) | 0x000f
    let bytes: [UInt8] = [UInt8(raw >> 8), UInt8(raw & 0xff)]
    #expect(bytes.withUnsafeBytes { type.value(in: $0, at: 0) } == -3)
    let unsigned = try IIOScanType(parsing: "be:u12/16>>4")
    #expect(bytes.withUnsafeBytes { unsigned.value(in: $0, at: 0) } == 4093)
  }

  @Test func readsLittleEndian32And64() throws {
    let s32 = try IIOScanType(parsing: "le:s32/32>>0")
    let s64 = try IIOScanType(parsing: "le:s64/64>>0")
    let bytes = littleEndian(-123_456, bytes: 4) + littleEndian(-9_000_000_000, bytes: 8)
    #expect(bytes.withUnsafeBytes { s32.value(in: $0, at: 0) } == -123_456)
    #expect(bytes.withUnsafeBytes { s64.value(in: $0, at: 4) } == -9_000_000_000)
  }
}

@Suite struct ScanLayoutTests {
  @Test func alignsEachChannelToItsSizeAndPadsTheScan() throws {
    // Three s16 axes and the s64 timestamp: 6 bytes, padded to 8, then 8: 16 bytes.
    let s16 = try IIOScanType(parsing: "le:s16/16>>0")
    let s64 = try IIOScanType(parsing: "le:s64/64>>0")
    let layout = try IIOScanLayout(channels: [
      ("timestamp", 3, s64), ("accel_z", 2, s16), ("accel_x", 0, s16), ("accel_y", 1, s16),
    ])
    #expect(layout.elements.map(\.name) == ["accel_x", "accel_y", "accel_z", "timestamp"])
    #expect(layout.elements.map(\.offset) == [0, 2, 4, 8])
    #expect(layout.scanBytes == 16)
  }

  @Test func padsToTheLargestElement() throws {
    // s32 then u8: 5 bytes, padded to 8 (iio_compute_scan_bytes).
    let layout = try IIOScanLayout(channels: [
      ("a", 0, try IIOScanType(parsing: "le:s32/32>>0")),
      ("b", 1, try IIOScanType(parsing: "le:u8/8>>0")),
    ])
    #expect(layout.scanBytes == 8)
  }

  @Test func decodesAHIDSensorScan() throws {
    let s32 = try IIOScanType(parsing: "le:s32/32>>0")
    let s64 = try IIOScanType(parsing: "le:s64/64>>0")
    let layout = try IIOScanLayout(channels: [
      ("accel_x", 0, s32), ("accel_y", 1, s32), ("accel_z", 2, s32), ("timestamp", 3, s64),
    ])
    #expect(layout.scanBytes == 24)
    let scan =
      littleEndian(10, bytes: 4) + littleEndian(-20, bytes: 4) + littleEndian(-981, bytes: 4)
      + [0, 0, 0, 0] + littleEndian(1_234_567_890_123, bytes: 8)
    let values = scan.withUnsafeBytes { layout.decode($0) }
    #expect(
      values == ["accel_x": 10, "accel_y": -20, "accel_z": -981, "timestamp": 1_234_567_890_123])
  }

  @Test func sharedIndexIsAKernelBug() throws {
    let s16 = try IIOScanType(parsing: "le:s16/16>>0")
    #expect(throws: IIOFormatError.self) {
      try IIOScanLayout(channels: [("a", 0, s16), ("b", 0, s16)])
    }
  }
}
