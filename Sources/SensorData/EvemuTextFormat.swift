import SystemCalls

/// Writes the text that `evemu-record` (libevemu 2.7, file format 1.3) writes:
/// the version line, an evtest-like description in comments, the `N:`, `I:`,
/// `P:`, `B:` and `A:` lines, then one `E:` line per event with its
/// description comment.
///
/// Event times are written relative to the first event, which is written at
/// 0.000001 s, as `evemu_record` does; a time before the first event is
/// written as 0.000000.
struct EvemuTextFormat {
  let info: DeviceInfo
  private var offset: Int64?
  private var lastMillis: Int64 = 0

  init(info: DeviceInfo) { self.info = info }

  /// The file format version written.
  static let version = "1.3"

  /// Everything before the first event. `comments` are lines written after
  /// the version line, each prefixed with `# ` (evemu-record writes the
  /// kernel release and the DMI modalias there).
  func header(comments: [String]) -> String {
    var out = "# EVEMU \(Self.version)\n"
    for comment in comments { out += "# \(Self.oneLine(comment))\n" }
    out += description()
    out += "N: \(Self.oneLine(info.name))\n"
    out +=
      "I: \(hex4(info.id.bustype)) \(hex4(info.id.vendor)) \(hex4(info.id.product)) \(hex4(info.id.version))\n"
    var props = [UInt8](repeating: 0, count: 8)
    for p in info.properties where p < 64 { props[Int(p / 8)] |= 1 << (p % 8) }
    out += "P: " + props.map(hex2).joined(separator: " ") + "\n"
    out += "B: 00 0b 00 00 00 00 00 00 00\n"
    for type in UInt16(1)..<UInt16(EV_CNT) {
      guard let max = EventNames.maximumCode(type: type) else { continue }
      let byteCount = (Int(max) + 1 + 7) / 8
      var mask = [UInt8](repeating: 0, count: (byteCount + 7) / 8 * 8)
      for code in info.codes[type] ?? [] where Int(code) <= Int(max) {
        mask[Int(code / 8)] |= 1 << (code % 8)
      }
      for line in stride(from: 0, to: byteCount, by: 8) {
        out +=
          "B: \(hex2(UInt8(type))) " + mask[line..<line + 8].map(hex2).joined(separator: " ") + "\n"
      }
    }
    for code in (info.codes[EventType.abs] ?? []).sorted() where code < UInt16(ABS_CNT) {
      let a = info.absInfo[code] ?? AbsInfo(minimum: 0, maximum: 0)
      out +=
        "A: \(hex2(UInt8(code))) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
    }
    out += "################################\n"
    out += "#      Waiting for events      #\n"
    out += "################################\n"
    return out
  }

  /// `text` (a device's name) as one header line holds it: evemu-record
  /// writes the name raw (`N: %s`) and libevemu reads it up to the first
  /// `\n` or `\r` (`N: %m[^\n\r]`), so a name with a line break in it would
  /// end early and inject lines into the header. Every control character is
  /// written as the escape a terminal shows for it (`\n`, `\e`, `\x07`,
  /// `\u{85}`, and the bidirectional overrides as `\u{202E}`, as
  /// `TerminalText` spells them), so `evemu-play` names its device with the
  /// escaped text and `info` shows the same name for the file as for the
  /// device. Other text, UTF-8 and tabs included, is written as it is.
  static func oneLine(_ text: String) -> String { TerminalEscapes.escaped(text) }

  /// The evtest-like description evemu writes as comments.
  private func description() -> String {
    var out = "# Input device name: \"\(Self.oneLine(info.name))\"\n"
    out +=
      "# Input device ID: bus \(alternateHex(info.id.bustype)) vendor \(alternateHex(info.id.vendor))"
    out += " product \(alternateHex(info.id.product)) version \(alternateHex(info.id.version))\n"
    if let x = info.absInfo[AbsCode.x], let y = info.absInfo[AbsCode.y],
      info.has(type: EventType.abs, code: AbsCode.x),
      info.has(type: EventType.abs, code: AbsCode.y),
      x.resolution != 0, y.resolution != 0
    {
      let w = (Int(x.maximum) - Int(x.minimum)) / Int(x.resolution)
      let h = (Int(y.maximum) - Int(y.minimum)) / Int(y.resolution)
      if w != 0 && h != 0 { out += "# Size in mm: \(w)x\(h)\n" }
    }
    out += "# Supported events:\n"
    for type in UInt16(0)..<UInt16(EV_CNT) {
      guard type == EventType.syn || info.has(type: type) else { continue }
      out += "#   Event type \(type) (\(typeName(type)))\n"
      let codes = type == EventType.syn ? (info.codes[type] ?? [SynCode.report]) : info.codes[type]!
      for code in codes.sorted() {
        out += "#     Event code \(code) (\(codeName(type, code)))\n"
        if type == EventType.abs {
          let a = info.absInfo[code] ?? AbsInfo(minimum: 0, maximum: 0)
          out += "#       Value   \(pad(a.value, 6))\n"
          out += "#       Min     \(pad(a.minimum, 6))\n"
          out += "#       Max     \(pad(a.maximum, 6))\n"
          out += "#       Fuzz    \(pad(a.fuzz, 6))\n"
          out += "#       Flat    \(pad(a.flat, 6))\n"
          out += "#       Resolution \(pad(a.resolution, 3))\n"
        } else if type == UInt16(EV_LED) || type == UInt16(EV_SW) {
          out += "#        State 0\n"
        }
      }
    }
    out += "# Properties:\n"
    for p in info.properties.sorted() {
      let name = EventNames.propertyName(p) ?? "(null)"
      out += "#   Property  type \(p) (\(name))\n"
    }
    return out
  }

  /// Appends the `E:` lines of `frame` to `out`.
  mutating func append(_ frame: Frame, to out: inout String) {
    for event in frame.events { append(event, to: &out) }
  }

  mutating func append(_ event: InputEvent, to out: inout String) {
    let absolute = event.time.totalMicroseconds
    if offset == nil { offset = absolute - 1 }
    let relative = max(0, absolute - offset!)
    let seconds = relative / 1_000_000
    let micros = relative % 1_000_000
    out += "E: \(seconds).\(zeroPadded(micros, 6)) \(hex4(event.type)) \(hex4(event.code)) "
    out += zeroPaddedSigned(event.value, 4)
    out += "\t"
    if event.type == EventType.syn {
      let name = codeName(event.type, event.code)
      if event.code == UInt16(SYN_MT_REPORT) {
        out += "# ++++++++++++ \(name) (\(event.value)) ++++++++++\n"
      } else {
        let millis = seconds * 1000 + micros / 1000
        let dt = millis - lastMillis
        lastMillis = millis
        out += "# ------------ \(name) (\(event.value)) ---------- \(dt >= 0 ? "+" : "")\(dt)ms\n"
      }
    } else {
      let code = codeName(event.type, event.code)
      let padded = code.count < 20 ? code + String(repeating: " ", count: 20 - code.count) : code
      out += "# \(typeName(event.type)) / \(padded) \(event.value)\n"
    }
  }

  private func typeName(_ type: UInt16) -> String {
    EventNames.typeName(type) ?? "(null)"
  }

  private func codeName(_ type: UInt16, _ code: UInt16) -> String {
    EventNames.codeName(type: type, code: code) ?? "(null)"
  }
}

/// `%04x`
private func hex4(_ v: UInt16) -> String { zeroPadded(String(v, radix: 16), 4) }
/// `%02x`
private func hex2(_ v: UInt8) -> String { zeroPadded(String(v, radix: 16), 2) }
/// `%#04x`: `0x` and at least two digits, or `0000` for zero.
private func alternateHex(_ v: UInt16) -> String {
  v == 0 ? "0000" : "0x" + zeroPadded(String(v, radix: 16), 2)
}
/// `%Nd`
private func pad(_ v: Int32, _ width: Int) -> String {
  let s = String(v)
  return s.count < width ? String(repeating: " ", count: width - s.count) + s : s
}
private func zeroPadded(_ s: String, _ width: Int) -> String {
  s.count < width ? String(repeating: "0", count: width - s.count) + s : s
}
private func zeroPadded(_ v: Int64, _ width: Int) -> String { zeroPadded(String(v), width) }
/// `%04d`: zero padding after the sign.
private func zeroPaddedSigned(_ v: Int32, _ width: Int) -> String {
  let digits = String(v.magnitude)
  return v < 0 ? "-" + zeroPadded(digits, width - 1) : zeroPadded(digits, width)
}
