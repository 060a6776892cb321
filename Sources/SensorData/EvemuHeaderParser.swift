/// Builds a ``DeviceInfo`` from the description lines of an evemu file
/// (`N:`, `I:`, `P:`, `B:`, `A:`, `L:`, `S:`), one line at a time.
struct HeaderParser {
  let path: String
  var info = DeviceInfo(name: "")
  var version: (major: Int, minor: Int) = (1, 0)
  private var sawName = false
  private var sawID = false
  private var propertyBytes = 0
  private var maskBytes: [UInt16: Int] = [:]

  init(path: String) { self.path = path }

  /// The most mask bytes read per `B:` type and for `P:`: 1 024 bits, above
  /// `KEY_CNT` (768), the largest code space.
  static let maximumMaskBytes = 128

  /// Reads `# EVEMU major.minor` when the first line is one.
  mutating func parseVersion(_ line: UnsafeBufferPointer<UInt8>) {
    let text = String(decoding: line, as: UTF8.self)
    let words = text.split(separator: " ")
    guard words.count >= 3, words[0] == "#", words[1] == "EVEMU" else { return }
    let parts = words[2].split(separator: ".")
    if parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]) {
      version = (major, minor)
    }
  }

  /// - Parameter atEvent: the line is the first `E:` line (an events-only file
  ///   when no header came before it).
  func requireComplete(line: Int, atEvent: Bool = false) throws(RecordingError) {
    if !sawName {
      let hint =
        atEvent
        ? "; events only: evemu-play plays such a file into a device that exists, so give the"
          + " .desc or full recording it was captured with"
        : ": " + RecordingError.giveARecording
      throw RecordingError(
        file: path, line: line, kind: .header,
        message:
          "no evemu header: expected 'N: device name' before this line; not an evemu recording"
          + hint)
    }
    if !sawID {
      throw RecordingError(
        file: path, line: line, kind: .header,
        message:
          "no 'I: bustype vendor product version' line after the name; the header is incomplete: "
          + "describe the device again with evemu-describe, or record it again")
    }
  }

  mutating func parse(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws(RecordingError) {
    let prefix = line.count >= 2 && line[1] == UInt8(ascii: ":") ? line[0] : 0
    func error(_ kind: RecordingError.Kind, _ message: String) -> RecordingError {
      RecordingError(file: path, line: number, kind: kind, message: message)
    }
    if !sawName {
      guard prefix == UInt8(ascii: "N") else {
        throw error(
          .header,
          "no evemu header: expected 'N: device name', got '\(EvemuReader.preview(line))'; not an evemu recording: "
            + RecordingError.giveARecording
        )
      }
      var s = ByteScanner(line)
      s.index = 2
      s.skipBlanks()
      info.name = String(decoding: UnsafeBufferPointer(rebasing: line[s.index...]), as: UTF8.self)
      sawName = true
      return
    }
    if !sawID {
      guard prefix == UInt8(ascii: "I") else {
        throw error(
          .header,
          "expected 'I: bustype vendor product version' after the name, got '\(EvemuReader.preview(line))'"
        )
      }
      let n = try numbers(line, number: number, hex: 4, decimal: 0, optional: 0, what: "I: line")
      for v in n where v > 0xFFFF {
        throw error(.outOfRange, "I: field 0x\(String(v, radix: 16)) is larger than 0xffff")
      }
      info.id = DeviceID(
        bustype: UInt16(n[0]), vendor: UInt16(n[1]), product: UInt16(n[2]), version: UInt16(n[3]))
      sawID = true
      return
    }
    switch prefix {
    case UInt8(ascii: "P"):
      let n = try numbers(line, number: number, hex: 8, decimal: 0, optional: 0, what: "P: line")
      // As for B: lines: 16 lines (1 024 bits) are far more than the kernel
      // has properties (INPUT_PROP_CNT is 32: evemu-record writes one line),
      // and the bit numbers stay within UInt16.
      guard propertyBytes < Self.maximumMaskBytes else {
        throw error(
          .outOfRange,
          "too many P: lines (more than \(Self.maximumMaskBytes / 8)); evemu-record writes one: "
            + RecordingError.damagedLine)
      }
      for (byteIndex, byte) in n.enumerated() {
        try checkByte(byte, number: number)
        for bit in 0..<8 where byte & (1 << bit) != 0 {
          info.properties.insert(UInt16((propertyBytes + byteIndex) * 8 + bit))
        }
      }
      propertyBytes += 8
    case UInt8(ascii: "B"):
      let n = try numbers(line, number: number, hex: 9, decimal: 0, optional: 0, what: "B: line")
      guard n[0] <= Int64(EV_MAX) else {
        throw error(
          .outOfRange,
          "B: event type 0x\(String(n[0], radix: 16)) is out of range (largest is 0x\(String(EV_MAX, radix: 16)))"
        )
      }
      let type = UInt16(n[0])
      // `B: 00` is the event-type mask (evemu-record always writes `0b`). A
      // type in it without codes is kept with none, as libevdev reports a live
      // device's types (udev's input_id looks at the type bits alone).
      if type == EventType.syn {
        for (byteIndex, byte) in n.dropFirst().enumerated() {
          try checkByte(byte, number: number)
          for bit in 0..<8 where byte & (1 << bit) != 0 {
            let present = UInt16(byteIndex * 8 + bit)
            if present != EventType.syn && present <= EventType.max {
              info.codes[present, default: []].formUnion([])
            }
          }
        }
        return
      }
      let offset = maskBytes[type, default: 0]
      guard offset < Self.maximumMaskBytes else {
        throw error(.outOfRange, "too many B: lines for event type 0x\(String(type, radix: 16))")
      }
      for (byteIndex, byte) in n.dropFirst().enumerated() {
        try checkByte(byte, number: number)
        for bit in 0..<8 where byte & (1 << bit) != 0 {
          info.codes[type, default: []].insert(UInt16((offset + byteIndex) * 8 + bit))
        }
      }
      maskBytes[type] = offset + 8
    case UInt8(ascii: "A"):
      let n = try numbers(line, number: number, hex: 1, decimal: 4, optional: 1, what: "A: line")
      guard n[0] <= Int64(ABS_MAX) else {
        throw error(
          .outOfRange,
          "A: axis 0x\(String(n[0], radix: 16)) is out of range (largest is 0x\(String(ABS_MAX, radix: 16)))"
        )
      }
      for v in n.dropFirst() where v < Int64(Int32.min) || v > Int64(Int32.max) {
        throw error(.outOfRange, "A: number \(v) is outside the 32-bit range")
      }
      if n[1] > n[2] {
        throw error(
          .outOfRange,
          "A: axis \(DeviceProfile.axisName(UInt16(n[0]))) has minimum \(n[1]) above maximum \(n[2]); the kernel refuses such an axis, so the file is corrupt"
        )
      }
      info.absInfo[UInt16(n[0])] = AbsInfo(
        minimum: Int32(n[1]), maximum: Int32(n[2]), fuzz: Int32(n[3]), flat: Int32(n[4]),
        resolution: n.count > 5 ? Int32(n[5]) : 0)
    case UInt8(ascii: "L"), UInt8(ascii: "S"):
      _ = try numbers(line, number: number, hex: 1, decimal: 1, optional: 0, what: "L:/S: line")
    case UInt8(ascii: "N"), UInt8(ascii: "I"):
      throw error(
        .header, "a second device description starts here; give one recording per file")
    default:
      throw error(
        .header,
        "expected a P:, B:, A:, L:, S: or E: line, got '\(EvemuReader.preview(line))'; "
          + RecordingError.damagedLine)
    }
  }

  private func checkByte(_ value: Int64, number: Int) throws(RecordingError) {
    if value > 0xFF {
      throw RecordingError(
        file: path, line: number, kind: .outOfRange,
        message:
          "mask byte 0x\(String(value, radix: 16)) is larger than 0xff; \(RecordingError.damagedLine)"
      )
    }
  }

  /// The numbers after `X:`: `hex` hex fields, then `decimal` signed decimal
  /// fields, then up to `optional` more decimal ones; a comment may follow.
  private func numbers(
    _ line: UnsafeBufferPointer<UInt8>, number: Int, hex: Int, decimal: Int, optional: Int,
    what: String
  ) throws(RecordingError) -> [Int64] {
    var s = ByteScanner(line)
    s.index = 2
    var result: [Int64] = []
    let required = hex + decimal
    for field in 0..<(required + optional) {
      s.skipBlanks()
      if s.atEndOrComment() {
        if field >= required { break }
        throw RecordingError(
          file: path, line: number, kind: .truncated,
          message:
            "truncated \(what): \(field) of \(required) numbers; \(RecordingError.damagedLine)")
      }
      let parsed = field < hex ? s.hex() : s.signedDecimal()
      switch parsed {
      case .value(let v, _) where s.atBlankOrEnd: result.append(v)
      case .tooBig:
        throw RecordingError(
          file: path, line: number, kind: .outOfRange,
          message: "number \(field + 1) of the \(what) is too big; \(RecordingError.damagedLine)")
      default:
        throw RecordingError(
          file: path, line: number, kind: .notANumber,
          message:
            "'\(s.word())' in the \(what) is not a \(field < hex ? "hex" : "decimal") number; "
            + RecordingError.damagedLine)
      }
    }
    if !s.atEndOrComment() {
      throw RecordingError(
        file: path, line: number, kind: .garbled,
        message:
          "unexpected '\(s.word())' at the end of the \(what); \(RecordingError.damagedLine)")
    }
    return result
  }
}
