// The DSU ("cemuhook") protocol, version 1001, as a client sees it: the
// requests a client sends and the server's answers, written from the
// protocol's public description (v1993/cemuhook-protocol) and from what
// Dolphin's DualShockUDPClient sends and accepts. Little-endian throughout.

/// The protocol's message types; an answer carries its request's type.
enum WireType: UInt32, Sendable {
  case version = 0x10_0000
  case portInfo = 0x10_0001
  case padData = 0x10_0002
}

/// What a pad-data request subscribes to.
enum WireSubscription: Sendable, Equatable {
  /// Every slot (flags 0).
  case all
  /// One slot (flags 1).
  case slot(UInt8)
  /// The device with this MAC (flags 2), six bytes as port info gives them.
  case mac([UInt8])
}

/// The protocol's constants.
enum Wire {
  static let version: UInt16 = 1001
  static let headerSize = 16
  static let clientMagic: [UInt8] = Array("DSUC".utf8)
  static let serverMagic: [UInt8] = Array("DSUS".utf8)
  /// Whole answers: version (Dolphin's size, 2 bytes of padding after the
  /// version; the description's 22 is accepted too), port info, pad data.
  static let versionAnswerSizes: Set<Int> = [22, 24]
  static let portInfoAnswerSize = 32
  static let padDataAnswerSize = 100
}

/// CRC-32 as zlib and the protocol compute it (IEEE 802.3: reflected,
/// polynomial 0xEDB88320, initial value and final xor 0xFFFFFFFF).
enum WireCRC32 {
  private static let table: [UInt32] = (0..<256).map { n -> UInt32 in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for b in bytes { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
  }

  /// The packet's CRC as the header should carry it: of the whole packet with
  /// bytes 8..<12 zeroed.
  static func ofPacket(_ packet: [UInt8]) -> UInt32 {
    var zeroed = packet
    if zeroed.count >= 12 { zeroed.replaceSubrange(8..<12, with: [0, 0, 0, 0]) }
    return checksum(zeroed)
  }
}

/// Little-endian reads and writes on byte arrays.
extension Array where Element == UInt8 {
  mutating func wireAppend<T: FixedWidthInteger>(_ value: T) {
    Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
  }

  mutating func wireSet<T: FixedWidthInteger>(_ value: T, at offset: Int) {
    Swift.withUnsafeBytes(of: value.littleEndian) {
      replaceSubrange(offset..<offset + $0.count, with: $0)
    }
  }

  func wireRead<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
    var value = T.zero
    for i in 0..<MemoryLayout<T>.size { value |= T(self[offset + i]) << (8 * i) }
    return value
  }

  func wireFloat(at offset: Int) -> Float { Float(bitPattern: wireRead(UInt32.self, at: offset)) }
}

/// Builds the datagrams a client sends.
struct WireRequests: Sendable {
  /// The client's id in every header; fixed for a run, as the protocol asks.
  var sender: UInt32

  /// A version request.
  func version() -> [UInt8] { packet(.version, payload: []) }

  /// A port-info request for `slots` (the count, then one byte per slot;
  /// Dolphin asks for 4 slots, 0-3, once a second).
  func portInfo(slots: [UInt8]) -> [UInt8] {
    var payload: [UInt8] = []
    payload.wireAppend(Int32(slots.count))
    payload += slots
    return packet(.portInfo, payload: payload)
  }

  /// A pad-data request: flags, slot, MAC (8 bytes; 28 in all, as Dolphin sends).
  func padData(_ subscription: WireSubscription) -> [UInt8] {
    var payload: [UInt8]
    switch subscription {
    case .all: payload = [0, 0] + [UInt8](repeating: 0, count: 6)
    case .slot(let s): payload = [1, s] + [UInt8](repeating: 0, count: 6)
    case .mac(let m):
      payload = [2, 0] + m.prefix(6) + [UInt8](repeating: 0, count: 6 - min(6, m.count))
    }
    return packet(.padData, payload: payload)
  }

  /// A client datagram: header (magic, version, length, CRC, sender), the
  /// message type, the payload, with the CRC computed last.
  func packet(_ type: WireType, payload: [UInt8]) -> [UInt8] {
    packet(rawType: type.rawValue, payload: payload)
  }

  func packet(rawType: UInt32, payload: [UInt8]) -> [UInt8] {
    var p = Wire.clientMagic
    p.wireAppend(Wire.version)
    p.wireAppend(UInt16(4 + payload.count))
    p.wireAppend(UInt32(0))
    p.wireAppend(sender)
    p.wireAppend(rawType)
    p += payload
    return Self.sealed(p)
  }

  /// `packet` with its CRC field recomputed (after a test changed a byte
  /// other than the CRC, so that only that change makes it malformed).
  static func sealed(_ packet: [UInt8]) -> [UInt8] {
    var p = packet
    p.wireSet(WireCRC32.ofPacket(p), at: 8)
    return p
  }
}

/// The first 11 bytes of a port-info or pad-data answer: one slot's state.
struct WireSlotInfo: Sendable, Equatable {
  var slot: UInt8
  /// 0 not connected, 1 reserved, 2 connected.
  var state: UInt8
  /// 0 not applicable, 1 no or partial gyroscope, 2 full gyroscope.
  var model: UInt8
  /// 0 not applicable, 1 USB, 2 Bluetooth.
  var connection: UInt8
  /// Six bytes, as the datagram carries them.
  var mac: [UInt8]
  /// 0 not applicable, 1-5 dying to full, 0xEE charging, 0xEF charged.
  var battery: UInt8

  init(_ p: [UInt8], at o: Int) {
    slot = p[o]
    state = p[o + 1]
    model = p[o + 2]
    connection = p[o + 3]
    mac = Array(p[o + 4..<o + 10])
    battery = p[o + 10]
  }
}

/// A pad-data answer, decoded.
struct WirePadData: Sendable {
  var info: WireSlotInfo
  /// The connected byte (1 while the device is there).
  var connected: UInt8
  /// Counts per client from 0.
  var packetNumber: UInt32
  /// Bytes 36..<56 of the datagram: buttons, sticks, analog buttons.
  var controls: [UInt8]
  /// Bytes 56..<68: two touches.
  var touches: [UInt8]
  /// The motion timestamp in µs.
  var timestamp: UInt64
  /// Accelerometer X, Y, Z in g.
  var accelerometer: SIMD3<Float>
  /// Gyroscope pitch, yaw, roll in deg/s.
  var gyroscope: SIMD3<Float>

  /// Sticks (left X, left Y, right X, right Y), 128 when neutral.
  var sticks: [UInt8] { Array(controls[4..<8]) }
}

/// Why an answer was refused.
enum WireAnswerError: Error, Equatable, CustomStringConvertible {
  case tooShort(Int)
  case badMagic([UInt8])
  case badVersion(UInt16)
  case badLength(declared: Int, received: Int)
  case badCRC(declared: UInt32, computed: UInt32)
  case unknownType(UInt32)
  case wrongSize(WireType, Int)

  var description: String {
    switch self {
    case .tooShort(let n): "answer of \(n) bytes is shorter than a header and type"
    case .badMagic(let m): "magic \(m) is not DSUS"
    case .badVersion(let v): "protocol version \(v), not 1001"
    case .badLength(let d, let r): "length field \(d) but \(r) bytes after the header"
    case .badCRC(let d, let c): "CRC \(d) in the header, \(c) computed"
    case .unknownType(let t): "message type \(t)"
    case .wrongSize(let t, let n): "\(t) answer of \(n) bytes"
    }
  }
}

/// An answer from the server, checked and decoded.
enum WireAnswer: Sendable {
  case version(UInt16)
  case portInfo(WireSlotInfo)
  case padData(WirePadData)

  /// The header's sender id of a valid answer (the server's id).
  static func sender(of datagram: [UInt8]) -> UInt32 { datagram.wireRead(UInt32.self, at: 12) }

  /// Checks magic, version, length, CRC, type and size, then decodes.
  static func parse(_ p: [UInt8]) throws(WireAnswerError) -> WireAnswer {
    guard p.count >= Wire.headerSize + 4 else { throw .tooShort(p.count) }
    guard Array(p[0..<4]) == Wire.serverMagic else { throw .badMagic(Array(p[0..<4])) }
    let version = p.wireRead(UInt16.self, at: 4)
    guard version == Wire.version else { throw .badVersion(version) }
    let length = Int(p.wireRead(UInt16.self, at: 6))
    guard length == p.count - Wire.headerSize else {
      throw .badLength(declared: length, received: p.count - Wire.headerSize)
    }
    let declared = p.wireRead(UInt32.self, at: 8)
    let computed = WireCRC32.ofPacket(p)
    guard declared == computed else { throw .badCRC(declared: declared, computed: computed) }
    let rawType = p.wireRead(UInt32.self, at: 16)
    guard let type = WireType(rawValue: rawType) else { throw .unknownType(rawType) }
    switch type {
    case .version:
      guard Wire.versionAnswerSizes.contains(p.count) else {
        throw .wrongSize(type, p.count)
      }
      return .version(p.wireRead(UInt16.self, at: 20))
    case .portInfo:
      guard p.count == Wire.portInfoAnswerSize else { throw .wrongSize(type, p.count) }
      return .portInfo(WireSlotInfo(p, at: 20))
    case .padData:
      guard p.count == Wire.padDataAnswerSize else { throw .wrongSize(type, p.count) }
      return .padData(
        WirePadData(
          info: WireSlotInfo(p, at: 20), connected: p[31],
          packetNumber: p.wireRead(UInt32.self, at: 32), controls: Array(p[36..<56]),
          touches: Array(p[56..<68]), timestamp: p.wireRead(UInt64.self, at: 68),
          accelerometer: SIMD3(p.wireFloat(at: 76), p.wireFloat(at: 80), p.wireFloat(at: 84)),
          gyroscope: SIMD3(p.wireFloat(at: 88), p.wireFloat(at: 92), p.wireFloat(at: 96))))
    }
  }
}
