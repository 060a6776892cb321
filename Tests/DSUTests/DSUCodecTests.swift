import Attitude
import Testing

@testable import DSU

@Suite struct DSUCodecTests {
  @Test func crcIsZlibs() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([]) == 0)
  }

  @Test func requestsParseToTheirKinds() throws {
    #expect(try parse(RequestBytes.version()).kind == .version)
    #expect(try parse(RequestBytes.portInfo([0, 1, 2, 3])).kind == .portInfo(slots: [0, 1, 2, 3]))
    #expect(try parse(RequestBytes.portInfo([2])).kind == .portInfo(slots: [2]))
    #expect(try parse(RequestBytes.portInfo([])).kind == .portInfo(slots: []))
    #expect(try parse(RequestBytes.padData()).kind == .padData(.allSlots))
    #expect(try parse(RequestBytes.padData(flags: 1, slot: 3)).kind == .padData(.init(slot: 3)))
    let mac: [UInt8] = [0xAA, 0xBB, 0xCC, 1, 2, 3]
    #expect(
      try parse(RequestBytes.padData(flags: 2, mac: mac)).kind
        == .padData(.init(mac: MACAddress(bytes: mac))))
    #expect(try parse(RequestBytes.version()).senderID == 0xC0FFEE)
  }

  @Test func bytesBeyondTheDeclaredLengthAreIgnored() throws {
    #expect(try parse(RequestBytes.version() + [1, 2, 3]).kind == .version)
  }

  @Test func versionAnswerIsDolphinsSize() {
    let bytes = DSUAnswer.version(serverID: 7)
    #expect(bytes.count == 24)
    expectHeader(bytes, type: 0x10_0000)
    #expect(bytes[20] == 0xE9 && bytes[21] == 0x03)  // 1001
  }

  @Test func portInfoAnswerCarriesTheSlot() {
    let mac = MACAddress(uniq: "a0:5a:5e:01:02:03")!
    let info = DSUPortInfo(
      slot: 2, state: .connected, model: .fullGyro, connection: .bluetooth, mac: mac,
      battery: .charging)
    let bytes = DSUAnswer.portInfo(info, serverID: 7)
    #expect(bytes.count == 32)
    expectHeader(bytes, type: 0x10_0001)
    #expect(Array(bytes[20..<32]) == [2, 2, 2, 2, 0xA0, 0x5A, 0x5E, 1, 2, 3, 0xEE, 0])
  }

  @Test func padDataAnswerLaysOutTheMotion() {
    let info = DSUPortInfo(slot: 1, state: .connected, model: .fullGyro, connection: .usb)
    let motion = DSUMotion(
      timestampMicroseconds: 0x0102_0304_0506, acceleration: (0.5, -1, 0.25),
      gyroscope: (10, -20, 30))
    let bytes = DSUAnswer.padData(info, packetNumber: 9, motion: motion, serverID: 7)
    #expect(bytes.count == 100)
    expectHeader(bytes, type: 0x10_0002)
    #expect(bytes[20] == 1 && bytes[21] == 2 && bytes[31] == 1)
    #expect(Array(bytes[32..<36]) == [9, 0, 0, 0])
    #expect(Array(bytes[40..<44]) == [128, 128, 128, 128])
    #expect(bytes[36..<40].allSatisfy { $0 == 0 } && bytes[44..<68].allSatisfy { $0 == 0 })
    #expect(Array(bytes[68..<76]) == [6, 5, 4, 3, 2, 1, 0, 0])
    let floats = (0..<6).map { index in
      Float(
        bitPattern: bytes[(76 + 4 * index)...].prefix(4).enumerated().reduce(UInt32(0)) {
          $0 | UInt32($1.element) << (8 * $1.offset)
        })
    }
    #expect(floats == [0.5, -1, 0.25, 10, -20, 30])
  }

  @Test func faceUpReadsMinusOneGInY() {
    let motion = DSUMotion(
      timestampMicroseconds: 0, acceleration: Vector3(0, 0, 1), rotationRate: nil)
    #expect(motion.acceleration == (-0, -1, 0))
    #expect(motion.gyroscope == (0, 0, 0))
  }

  @Test(arguments: [
    // card axis turned about (rad/s) → DSU (pitch, yaw, roll) deg/s
    (Vector3(1, 0, 0), (Float(57.29578), Float(0), Float(0))),
    (Vector3(0, 1, 0), (Float(0), Float(0), Float(57.29578))),
    (Vector3(0, 0, 1), (Float(0), Float(-57.29578), Float(0))),
  ])
  func gyroscopeAxesAreSpec7s(card: Vector3, dsu: (Float, Float, Float)) {
    let motion = DSUMotion(
      timestampMicroseconds: 0, acceleration: Vector3(0, 0, 1), rotationRate: card)
    #expect(abs(motion.gyroscope.pitch - dsu.0) < 1e-4)
    #expect(abs(motion.gyroscope.yaw - dsu.1) < 1e-4)
    #expect(abs(motion.gyroscope.roll - dsu.2) < 1e-4)
  }

  @Test func accelerometerAxesAreSpec7s() {
    let motion = DSUMotion(
      timestampMicroseconds: 0, acceleration: Vector3(0.1, 0.2, 0.3), rotationRate: nil)
    #expect(motion.acceleration == (Float(-0.1), Float(-0.3), Float(0.2)))
  }

  @Test func macFromUniq() {
    #expect(MACAddress(uniq: "A0:5a:5e:01:02:ff")?.bytes == [0xA0, 0x5A, 0x5E, 1, 2, 0xFF])
    #expect(MACAddress(uniq: "a0:5a:5e:01:02:ff")?.description == "a0:5a:5e:01:02:ff")
    #expect(MACAddress(uniq: "00:00:00:00:00:00") == nil)
    #expect(MACAddress(uniq: "") == nil)
    #expect(MACAddress(uniq: "usb-0000:00:14.0-1") == nil)
  }

  private func parse(_ bytes: [UInt8]) throws -> DSURequest {
    try DSUDatagramParser.parse(bytes).get()
  }

  private func expectHeader(_ bytes: [UInt8], type: UInt32) {
    #expect(Array(bytes[0..<4]) == Array("DSUS".utf8))
    #expect(Array(bytes[4..<6]) == [0xE9, 0x03])
    #expect(Int(bytes[6]) | Int(bytes[7]) << 8 == bytes.count - 16)
    var zeroed = bytes
    zeroed.replaceSubrange(8..<12, with: [0, 0, 0, 0])
    #expect(Array(bytes[8..<12]) == RequestBytes.le(CRC32.checksum(zeroed)))
    #expect(Array(bytes[12..<16]) == [7, 0, 0, 0])
    #expect(Array(bytes[16..<20]) == RequestBytes.le(type))
  }
}
