/// The server's datagrams, encoded: a 16-byte header (`DSUS`, version 1001,
/// length, CRC-32 with its field zeroed, the server's id), the message type,
/// then the payload. Sizes are those clients check (Dolphin drops an answer
/// longer than its own structure): version 24 bytes, port info 32, pad data 100.
public enum DSUAnswer {
  /// The answer to a version request: the highest version, 1001.
  public static func version(serverID: UInt32) -> [UInt8] {
    var payload: [UInt8] = []
    payload.appendLittleEndian(DSUProtocol.version)
    payload += [0, 0]
    return packet(type: .version, payload: payload, serverID: serverID)
  }

  /// The answer about one slot to a port-info request.
  public static func portInfo(_ info: DSUPortInfo, serverID: UInt32) -> [UInt8] {
    packet(type: .portInfo, payload: info.bytes + [0], serverID: serverID)
  }

  /// One pad-data datagram: `info` (a connected slot), the client's packet
  /// number, buttons and sticks neutral (sticks 128, the rest 0), no touch,
  /// and `motion`.
  public static func padData(
    _ info: DSUPortInfo, packetNumber: UInt32, motion: DSUMotion, serverID: UInt32
  ) -> [UInt8] {
    var payload = info.bytes
    payload.reserveCapacity(80)
    payload.append(info.state == .connected ? 1 : 0)
    payload.appendLittleEndian(packetNumber)
    payload += [0, 0, 0, 0]  // button bitmasks, PS, touch button
    payload += [128, 128, 128, 128]  // sticks neutral
    payload += [UInt8](repeating: 0, count: 12)  // analog buttons
    payload += [UInt8](repeating: 0, count: 12)  // two touches, inactive
    payload.appendLittleEndian(motion.timestampMicroseconds)
    for value in [motion.acceleration.x, motion.acceleration.y, motion.acceleration.z] {
      payload.appendLittleEndian(value)
    }
    for value in [motion.gyroscope.pitch, motion.gyroscope.yaw, motion.gyroscope.roll] {
      payload.appendLittleEndian(value)
    }
    return packet(type: .padData, payload: payload, serverID: serverID)
  }

  /// Header, type and payload, with the CRC-32 filled in.
  static func packet(type: DSUMessageType, payload: [UInt8], serverID: UInt32) -> [UInt8] {
    var bytes = DSUProtocol.serverMagic
    bytes.reserveCapacity(DSUProtocol.headerSize + 4 + payload.count)
    bytes.appendLittleEndian(DSUProtocol.version)
    bytes.appendLittleEndian(UInt16(4 + payload.count))
    bytes.appendLittleEndian(UInt32(0))
    bytes.appendLittleEndian(serverID)
    bytes.appendLittleEndian(type.rawValue)
    bytes += payload
    bytes.setLittleEndian(CRC32.checksum(bytes), at: 8)
    return bytes
  }
}
