import Testing

/// The test client's own checks, so that the end-to-end tests can trust it.
@Suite struct DSUClientTests {
  @Test func crcIsZlibs() {
    #expect(WireCRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(WireCRC32.checksum([]) == 0)
  }

  @Test func requestsHaveTheSizesDolphinSends() {
    let r = WireRequests(sender: 0x1234_5678)
    #expect(r.version().count == 20)
    #expect(r.portInfo(slots: [0, 1, 2, 3]).count == 28)
    #expect(r.padData(.all).count == 28)
    let p = r.padData(.slot(3))
    #expect(Array(p[0..<4]) == Array("DSUC".utf8))
    #expect(p.wireRead(UInt16.self, at: 4) == 1001)
    #expect(p.wireRead(UInt16.self, at: 6) == 12)
    #expect(p.wireRead(UInt32.self, at: 12) == 0x1234_5678)
    #expect(p.wireRead(UInt32.self, at: 16) == 0x10_0002)
    #expect(p[20] == 1 && p[21] == 3)
    #expect(p.wireRead(UInt32.self, at: 8) == WireCRC32.ofPacket(p))
  }

  /// A server answer built by hand, byte by byte, from the description.
  static func padDataAnswer() -> [UInt8] {
    var p = Array("DSUS".utf8)
    p.wireAppend(UInt16(1001))
    p.wireAppend(UInt16(84))
    p.wireAppend(UInt32(0))
    p.wireAppend(UInt32(7))
    p.wireAppend(UInt32(0x10_0002))
    p += [0, 2, 2, 1, 1, 2, 3, 4, 5, 6, 5]  // slot, state, model, USB, MAC, battery full
    p += [1]  // connected
    p.wireAppend(UInt32(42))
    p += [0, 0, 0, 0, 128, 128, 128, 128] + [UInt8](repeating: 0, count: 12)
    p += [UInt8](repeating: 0, count: 12)
    p.wireAppend(UInt64(1_000_000))
    for f: Float in [0, -1, 0, 1.5, -2.5, 3.5] { p.wireAppend(f.bitPattern) }
    return WireRequests.sealed(p)
  }

  @Test func decodesPadData() throws {
    let p = Self.padDataAnswer()
    #expect(p.count == 100)
    guard case .padData(let d) = try WireAnswer.parse(p) else {
      Issue.record("not pad data")
      return
    }
    #expect(d.info.state == 2 && d.info.connection == 1 && d.info.battery == 5)
    #expect(d.info.mac == [1, 2, 3, 4, 5, 6])
    #expect(d.connected == 1 && d.packetNumber == 42 && d.timestamp == 1_000_000)
    #expect(d.sticks == [128, 128, 128, 128])
    #expect(d.accelerometer == SIMD3(0, -1, 0))
    #expect(d.gyroscope == SIMD3(1.5, -2.5, 3.5))
  }

  @Test func refusesWhatIsMalformed() {
    let good = Self.padDataAnswer()
    var crc = good
    crc[9] ^= 1
    #expect(throws: WireAnswerError.self) { try WireAnswer.parse(crc) }
    var magic = good
    magic[3] = UInt8(ascii: "C")
    #expect(throws: WireAnswerError.self) { try WireAnswer.parse(WireRequests.sealed(magic)) }
    #expect(throws: WireAnswerError.self) { try WireAnswer.parse(Array(good.prefix(99))) }
    var type = good
    type.wireSet(UInt32(0x10_0001), at: 16)
    #expect(throws: WireAnswerError.self) { try WireAnswer.parse(WireRequests.sealed(type)) }
  }
}
