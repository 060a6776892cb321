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
    out.append(contentsOf: #"{"t":"#.utf8)
    FixedDecimal.append(frame.t, decimals: 6, to: &out)
    out.append(contentsOf: #","attitude":{"pitch":"#.utf8)
    FixedDecimal.append(a.pitch * degrees, decimals: 4, to: &out)
    out.append(contentsOf: #","roll":"#.utf8)
    FixedDecimal.append(a.roll * degrees, decimals: 4, to: &out)
    out.append(contentsOf: #","yaw":"#.utf8)
    FixedDecimal.append(a.yaw * degrees, decimals: 4, to: &out)
    out.append(contentsOf: #","quaternion":"#.utf8)
    let q = a.quaternion
    appendArray([q.w, q.x, q.y, q.z], decimals: 6, to: &out)
    out.append(contentsOf: #"},"gravity":"#.utf8)
    appendArray([m.gravity.x, m.gravity.y, m.gravity.z], decimals: 6, to: &out)
    out.append(contentsOf: #","rotationRate":"#.utf8)
    if let r = m.rotationRate {
      appendArray([r.x * degrees, r.y * degrees, r.z * degrees], decimals: 4, to: &out)
    } else {
      out.append(contentsOf: "null".utf8)
    }
    out.append(contentsOf: #","card":{"rotationX":"#.utf8)
    FixedDecimal.append(frame.pose.rotationX, decimals: 4, to: &out)
    out.append(contentsOf: #","rotationY":"#.utf8)
    FixedDecimal.append(frame.pose.rotationY, decimals: 4, to: &out)
    out.append(contentsOf: #","flipAngle":"#.utf8)
    FixedDecimal.append(frame.flipAngle, decimals: 4, to: &out)
    out.append(contentsOf: #","face":""#.utf8)
    out.append(contentsOf: frame.face.rawValue.utf8)
    out.append(contentsOf: #"","flipped":"#.utf8)
    out.append(contentsOf: (frame.flipped ? "true" : "false").utf8)
    out.append(contentsOf: #","transform":["#.utf8)
    let e = frame.transform.elements
    for i in 0..<16 {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      FixedDecimal.append(e[i], decimals: 6, to: &out)
    }
    let x = frame.extras
    out.append(contentsOf: #"],"shade":"#.utf8)
    FixedDecimal.append(x.shade, decimals: 4, to: &out)
    out.append(contentsOf: #","lift":"#.utf8)
    FixedDecimal.append(x.lift, decimals: 4, to: &out)
    out.append(contentsOf: #","sheen":{"x":"#.utf8)
    FixedDecimal.append(x.sheenX, decimals: 4, to: &out)
    out.append(contentsOf: #","y":"#.utf8)
    FixedDecimal.append(x.sheenY, decimals: 4, to: &out)
    out.append(contentsOf: #"},"shadow":{"x":"#.utf8)
    FixedDecimal.append(x.shadowX, decimals: 4, to: &out)
    out.append(contentsOf: #","y":"#.utf8)
    FixedDecimal.append(x.shadowY, decimals: 4, to: &out)
    out.append(contentsOf: #","blur":"#.utf8)
    FixedDecimal.append(x.shadowBlur, decimals: 4, to: &out)
    out.append(contentsOf: #"}},"state":""#.utf8)
    out.append(contentsOf: frame.state.rawValue.utf8)
    out.append(contentsOf: "\"}\n".utf8)
  }

  /// The line of `frame`, newline included.
  public func line(for frame: CardFrame) -> String {
    var out: [UInt8] = []
    encode(frame, into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  private func appendArray(_ values: [Double], decimals: Int, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    for (i, v) in values.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      FixedDecimal.append(v, decimals: decimals, to: &out)
    }
    out.append(UInt8(ascii: "]"))
  }
}
