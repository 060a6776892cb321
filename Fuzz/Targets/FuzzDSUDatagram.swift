import SystemCalls

/// libFuzzer target: any bytes as a client's DSU datagram. The parser must
/// give a request or a rejection; a request must hold only what the protocol
/// allows (at most 4 slots, each 0 to 3) and come from a datagram with the
/// client's magic, version 1001 and a matching CRC-32. The same bytes through
/// the server's core: a rejected datagram is answered by nothing, an accepted
/// one by at most 4 well-formed answers (server magic, length, CRC).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDSUDatagram(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = Array(fuzzBytes(data, size))
  check(bytes)
  // A mutation rarely keeps the CRC right: the same bytes with it made right
  // reach the checks behind it.
  if let sealed = withCRCMadeRight(bytes) { check(sealed) }
  return 0
}

/// `bytes` with the CRC field set to what its declared length covers; `nil`
/// when it has no whole header or declares more than it has.
private func withCRCMadeRight(_ bytes: [UInt8]) -> [UInt8]? {
  guard bytes.count >= 16 else { return nil }
  let length = Int(bytes[6]) | Int(bytes[7]) << 8
  guard 16 + length <= bytes.count else { return nil }
  var sealed = bytes
  sealed.replaceSubrange(8..<12, with: [0, 0, 0, 0])
  let crc = CRC32.checksum(sealed.prefix(16 + length))
  sealed.replaceSubrange(8..<12, with: (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) })
  return sealed
}

private func check(_ bytes: [UInt8]) {
  let parsed = DSUDatagramParser.parse(bytes)
  if case .success(let request) = parsed {
    precondition(Array(bytes.prefix(4)) == DSUProtocol.clientMagic, "accepted without DSUC")
    precondition(bytes[4] == 0xE9 && bytes[5] == 0x03, "accepted another version")
    let length = Int(bytes[6]) | Int(bytes[7]) << 8
    precondition(16 + length <= bytes.count, "accepted a length beyond the datagram")
    var zeroed = Array(bytes.prefix(16 + length))
    zeroed.replaceSubrange(8..<12, with: [0, 0, 0, 0])
    let crc = CRC32.checksum(zeroed)
    precondition(
      bytes[8..<12].elementsEqual((0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }),
      "accepted a bad CRC")
    switch request.kind {
    case .version: break
    case .portInfo(let slots):
      precondition(slots.count <= 4 && slots.allSatisfy { $0 < 4 }, "slots out of range")
    case .padData(let subscription):
      precondition((subscription.slot ?? 0) < 4, "subscribed slot out of range")
    }
    // Bytes beyond the declared length change nothing.
    precondition(
      DSUDatagramParser.parse(Array(bytes.prefix(16 + length))) == parsed,
      "the bytes after the declared length changed the request")
  }
  let answers = service.receive(bytes, from: sender, now: 0).answers
  if case .failure = parsed { precondition(answers.isEmpty, "a malformed datagram was answered") }
  precondition(answers.count <= 4, "more than 4 answers to one datagram")
  for answer in answers {
    precondition(Array(answer.prefix(4)) == DSUProtocol.serverMagic, "answer without DSUS")
    precondition(Int(answer[6]) | Int(answer[7]) << 8 == answer.count - 16, "answer's length")
  }
}

private let sender = SocketAddress(numericHost: "127.0.0.1", port: 40000)!
/// A core with one connected slot and no rate limit to speak of.
private let service: DSUService = {
  var limits = DSUService.Limits()
  limits.answersPerSecond = .max
  let service = DSUService(
    serverID: 1, allowList: AllowList(ranges: [], allowsEveryone: true), limits: limits)
  service.slots[0] = DSUPortInfo(slot: 0, state: .connected, model: .fullGyro, connection: .usb)
  return service
}()
