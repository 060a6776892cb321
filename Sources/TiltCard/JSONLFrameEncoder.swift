import Attitude

/// Writes frames as the JSON lines of SPEC §4, by hand: fixed decimals
/// (6 for `t`, quaternions, gravity and the transform; 4 for angles, rates and
/// the cues), keys in a fixed order, one `\n`-terminated line per frame.
///
/// Extra keys inside `"card"`: `shade`, `lift`, `sheen` `{x, y}` and
/// `shadow` `{x, y, blur}` (see ``CardExtras``).
public struct JSONLFrameEncoder: Sendable {
  public init() {}

  /// Appends the line of `frame` to `out`.
  public func encode(_ frame: CardFrame, into out: inout [UInt8]) {
    let m = frame.motion
    let a = m.attitude
    let degrees = 180 / Double.pi
    literal(#"{"t":"#, &out)
    FixedDecimal.append(frame.t, decimals: 6, to: &out)
    literal(#","attitude":{"pitch":"#, &out)
    FixedDecimal.append(a.pitch * degrees, decimals: 4, to: &out)
    literal(#","roll":"#, &out)
    FixedDecimal.append(a.roll * degrees, decimals: 4, to: &out)
    literal(#","yaw":"#, &out)
    FixedDecimal.append(a.yaw * degrees, decimals: 4, to: &out)
    literal(#","quaternion":"#, &out)
    let q = a.quaternion
    appendArray(q.w, q.x, q.y, q.z, decimals: 6, to: &out)
    literal(#"},"gravity":"#, &out)
    appendArray(m.gravity.x, m.gravity.y, m.gravity.z, decimals: 6, to: &out)
    literal(#","rotationRate":"#, &out)
    if let r = m.rotationRate {
      appendArray(r.x * degrees, r.y * degrees, r.z * degrees, decimals: 4, to: &out)
    } else {
      literal("null", &out)
    }
    literal(#","card":{"rotationX":"#, &out)
    FixedDecimal.append(frame.pose.rotationX, decimals: 4, to: &out)
    literal(#","rotationY":"#, &out)
    FixedDecimal.append(frame.pose.rotationY, decimals: 4, to: &out)
    literal(#","flipAngle":"#, &out)
    FixedDecimal.append(frame.flipAngle, decimals: 4, to: &out)
    literal(#","face":""#, &out)
    literal(frame.face == .front ? "front" : "back", &out)
    literal(#"","flipped":"#, &out)
    literal(frame.flipped ? "true" : "false", &out)
    literal(#","transform":["#, &out)
    let e = frame.transform.elements
    for i in 0..<16 {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      FixedDecimal.append(e[i], decimals: 6, to: &out)
    }
    let x = frame.extras
    literal(#"],"shade":"#, &out)
    FixedDecimal.append(x.shade, decimals: 4, to: &out)
    literal(#","lift":"#, &out)
    FixedDecimal.append(x.lift, decimals: 4, to: &out)
    literal(#","sheen":{"x":"#, &out)
    FixedDecimal.append(x.sheenX, decimals: 4, to: &out)
    literal(#","y":"#, &out)
    FixedDecimal.append(x.sheenY, decimals: 4, to: &out)
    literal(#"},"shadow":{"x":"#, &out)
    FixedDecimal.append(x.shadowX, decimals: 4, to: &out)
    literal(#","y":"#, &out)
    FixedDecimal.append(x.shadowY, decimals: 4, to: &out)
    literal(#","blur":"#, &out)
    FixedDecimal.append(x.shadowBlur, decimals: 4, to: &out)
    literal(#"}},"state":""#, &out)
    literal(frame.state == .active ? "active" : "stopped", &out)
    literal("\"}\n", &out)
  }

  /// The line of `frame`, newline included.
  public func line(for frame: CardFrame) -> String {
    var out: [UInt8] = []
    encode(frame, into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  @inline(__always)
  private func literal(_ text: StaticString, _ out: inout [UInt8]) {
    out.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  private func appendArray(
    _ a: Double, _ b: Double, _ c: Double, _ d: Double? = nil, decimals: Int,
    to out: inout [UInt8]
  ) {
    out.append(UInt8(ascii: "["))
    FixedDecimal.append(a, decimals: decimals, to: &out)
    out.append(UInt8(ascii: ","))
    FixedDecimal.append(b, decimals: decimals, to: &out)
    out.append(UInt8(ascii: ","))
    FixedDecimal.append(c, decimals: decimals, to: &out)
    if let d {
      out.append(UInt8(ascii: ","))
      FixedDecimal.append(d, decimals: decimals, to: &out)
    }
    out.append(UInt8(ascii: "]"))
  }
}
