import Attitude

/// Writes frames as the JSON lines of contract §4.1, by hand: fixed decimals
/// (6 for `t`, quaternions, gravity and the transform; 4 for angles, rates and
/// the cues), keys in a fixed order, one `\n`-terminated line per frame.
///
/// Extra keys inside `"card"`: `shade`, `lift`, `sheen` `{x, y}` and
/// `shadow` `{x, y, blur}` (see ``CardExtras``).
public struct JSONLFrameEncoder: Sendable {
  public init() {}

  /// Appends the line of `frame` to `out`.
  public func encode(_ frame: CardFrame, into out: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: LineWriter.capacity) { buffer in
      var line = LineWriter(start: buffer.baseAddress!)
      write(frame, to: &line)
      out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: line.count))
    }
  }

  private func write(_ frame: CardFrame, to out: inout LineWriter) {
    let m = frame.motion
    let a = m.attitude
    let degrees = 180 / Double.pi
    out.literal(#"{"t":"#)
    out.decimals6(frame.t)
    out.literal(#","attitude":{"pitch":"#)
    out.decimals4(a.pitch * degrees)
    out.literal(#","roll":"#)
    out.decimals4(a.roll * degrees)
    out.literal(#","yaw":"#)
    out.decimals4(a.yaw * degrees)
    out.literal(#","quaternion":"#)
    let q = a.quaternion
    out.array(q.w, q.x, q.y, q.z, decimals: 6)
    out.literal(#"},"gravity":"#)
    out.array(m.gravity.x, m.gravity.y, m.gravity.z, decimals: 6)
    out.literal(#","rotationRate":"#)
    if let r = m.rotationRate {
      out.array(r.x * degrees, r.y * degrees, r.z * degrees, decimals: 4)
    } else {
      out.literal("null")
    }
    out.literal(#","card":{"rotationX":"#)
    out.decimals4(frame.pose.rotationX)
    out.literal(#","rotationY":"#)
    out.decimals4(frame.pose.rotationY)
    out.literal(#","flipAngle":"#)
    out.decimals4(frame.flipAngle)
    out.literal(#","face":""#)
    out.literal(frame.face == .front ? "front" : "back")
    out.literal(#"","flipped":"#)
    out.literal(frame.flipped ? "true" : "false")
    out.literal(#","transform":["#)
    let e = frame.transform.elements
    for i in 0..<16 {
      if i > 0 { out.byte(UInt8(ascii: ",")) }
      out.decimals6(e[i])
    }
    let x = frame.extras
    out.literal(#"],"shade":"#)
    out.decimals4(x.shade)
    out.literal(#","lift":"#)
    out.decimals4(x.lift)
    out.literal(#","sheen":{"x":"#)
    out.decimals4(x.sheenX)
    out.literal(#","y":"#)
    out.decimals4(x.sheenY)
    out.literal(#"},"shadow":{"x":"#)
    out.decimals4(x.shadowX)
    out.literal(#","y":"#)
    out.decimals4(x.shadowY)
    out.literal(#","blur":"#)
    out.decimals4(x.shadowBlur)
    out.literal(#"}},"state":""#)
    out.literal(frame.state == .active ? "active" : "stopped")
    out.literal("\"}\n")
  }

  /// The line of `frame`, newline included.
  public func line(for frame: CardFrame) -> String {
    var out: [UInt8] = []
    encode(frame, into: &out)
    return String(decoding: out, as: UTF8.self)
  }
}

/// One line written into memory set aside for it: no capacity check per
/// byte. ``capacity`` holds the longest line (40 numbers of at most
/// ``FixedDecimal/maximumLength`` bytes and the keys).
private struct LineWriter {
  static let capacity = 2048
  let start: UnsafeMutablePointer<UInt8>
  private(set) var count = 0

  init(start: UnsafeMutablePointer<UInt8>) { self.start = start }

  mutating func byte(_ value: UInt8) {
    start[count] = value
    count += 1
  }

  mutating func literal(_ text: StaticString) {
    (start + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    count += text.utf8CodeUnitCount
  }

  mutating func decimals4(_ value: Double) {
    count += FixedDecimal.write(value, decimals: 4, at: start + count)
  }

  mutating func decimals6(_ value: Double) {
    count += FixedDecimal.write(value, decimals: 6, at: start + count)
  }

  private mutating func number(_ value: Double, decimals: Int) {
    if decimals == 6 { decimals6(value) } else { decimals4(value) }
  }

  mutating func array(
    _ a: Double, _ b: Double, _ c: Double, _ d: Double? = nil, decimals: Int
  ) {
    byte(UInt8(ascii: "["))
    number(a, decimals: decimals)
    byte(UInt8(ascii: ","))
    number(b, decimals: decimals)
    byte(UInt8(ascii: ","))
    number(c, decimals: decimals)
    if let d {
      byte(UInt8(ascii: ","))
      number(d, decimals: decimals)
    }
    byte(UInt8(ascii: "]"))
  }
}
