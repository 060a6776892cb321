import Attitude
import Foundation
import TestTools
import Testing

@testable import TiltCard

@Suite struct JSONLFrameEncoderTests {
  typealias S = TestSupport

  @Test func fixedDecimals() {
    #expect(FixedDecimal.string(1.2345675, decimals: 6) == "1.234568")
    #expect(FixedDecimal.string(-0.00004, decimals: 4) == "0.0000")
    #expect(FixedDecimal.string(-12.5, decimals: 0) == "-13")
    #expect(FixedDecimal.string(-0.0, decimals: 2) == "0.00")
    #expect(FixedDecimal.string(.nan, decimals: 2) == "0.00")
    #expect(FixedDecimal.string(.infinity, decimals: 1) == "0.0")
    #expect(FixedDecimal.string(180, decimals: 4) == "180.0000")
    #expect(FixedDecimal.string(0.000001, decimals: 6) == "0.000001")
  }

  /// The digit writer gives the bytes of the plain one it replaced (one
  /// digit at a time, `appendInteger`'s leading digit first), so the jsonl
  /// output stays byte for byte what it was: seeded values of every
  /// magnitude the clamp allows, at 0…7 decimals, and the edges.
  @Test func fixedDecimalsAsThePlainDigitByDigitWriter() {
    var random = SeededGenerator(seed: 19)
    var values: [Double] = [
      0, -0.0, 0.5, -0.5, 0.05, 0.00005, 0.99995, 9.99995, 99.5, 1e12, -1e12, 1e13, -1e15,
      999_999_999_999.99, .nan, .infinity, -.infinity, .ulpOfOne, -.leastNonzeroMagnitude,
      0.49999999999999994, 0.00004999999999999999, 2.5, -2.5, 4_503_599_627_370_495.5e-6,
    ]
    for _ in 0..<20_000 {
      let magnitude = Double.random(in: -7...12.5, using: &random)
      let sign: Double = Bool.random(using: &random) ? -1 : 1
      values.append(sign * pow(10, magnitude) * Double.random(in: 1...9.99, using: &random))
    }
    for value in values {
      for decimals in 0...7 {
        let plain = Self.plainDigits(value, decimals: decimals)
        let written = FixedDecimal.string(value, decimals: decimals)
        #expect(written == plain, "\(value) at \(decimals) decimals")
        if written != plain { return }
      }
    }
  }

  /// The writer as it was before the two-digits-at-a-time one.
  static func plainDigits(_ value: Double, decimals: Int) -> String {
    var out: [UInt8] = []
    let divisor = FixedDecimal.powerOfTen(decimals)
    var v = value.isFinite ? value : 0
    v = min(max(v, -1e12), 1e12)
    let units = UInt64((abs(v) * Double(divisor)).rounded(.toNearestOrAwayFromZero))
    if units != 0 && v < 0 { out.append(UInt8(ascii: "-")) }
    var power: UInt64 = 1
    let integer = units / divisor
    while power <= integer / 10 { power *= 10 }
    var rest = integer
    while power > 0 {
      out.append(UInt8(ascii: "0") + UInt8(rest / power))
      rest %= power
      power /= 10
    }
    if decimals > 0 {
      out.append(UInt8(ascii: "."))
      var fraction = units % divisor
      let start = out.count
      out += Array(repeating: UInt8(ascii: "0"), count: decimals)
      var i = out.count - 1
      while fraction > 0 && i >= start {
        out[i] = UInt8(ascii: "0") + UInt8(fraction % 10)
        fraction /= 10
        i -= 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The transform was checked against CSS `perspective(680) rotateX(-2deg)
  /// rotateY(-1deg)` computed independently (Python, column-major).
  @Test func goldenLine() {
    let motion = DeviceMotion(
      timestamp: 1.25, attitude: Attitude(pitch: 0.1, roll: -0.05, yaw: 0),
      gravity: Vector3(0, 0, -1), userAcceleration: .zero, rotationRate: nil)
    var session = CardSession(configuration: CardConfiguration())
    _ = session.receive(motion)
    let frame = session.finish().last!
    let line = JSONLFrameEncoder().line(for: frame)
    let golden =
      #"{"t":1.250000,"attitude":{"pitch":5.7296,"roll":-2.8648,"yaw":0.0000,"#
      + #""quaternion":[0.998438,0.049964,-0.024966,-0.001249]},"gravity":[0.000000,0.000000,-1.000000],"#
      + #""rotationRate":null,"card":{"rotationX":2.0000,"rotationY":-1.0000,"flipAngle":0.0000,"#
      + #""face":"front","flipped":false,"transform":[0.999848,0.000609,0.017442,-0.000026,"#
      + #"0.000000,0.999391,-0.034899,0.000051,-0.017452,0.034894,0.999239,-0.001469,"#
      + #"0.000000,0.000000,0.000000,1.000000],"shade":0.0008,"lift":1.0000,"#
      + #""sheen":{"x":2.9669,"y":-3.8384},"shadow":{"x":-0.1396,"y":8.2792,"blur":16.0000}},"#
      + #""state":"active"}"# + "\n"
    #expect(line == golden)
  }

  @Test func rotationRateInDegreesPerSecond() {
    let motion = DeviceMotion(
      timestamp: 0, attitude: .identity, gravity: Vector3(0, 0, -1), userAcceleration: .zero,
      rotationRate: Vector3(.pi, 0, -.pi / 2))
    let frame = CardFrame(
      t: 0, motion: motion, pose: .flat, flipAngle: 0, flipped: false, state: .stopped,
      configuration: CardConfiguration())
    let line = JSONLFrameEncoder().line(for: frame)
    #expect(line.contains(#""rotationRate":[180.0000,0.0000,-90.0000]"#))
    #expect(line.hasSuffix(#""state":"stopped"}"# + "\n"))
  }

  /// The lines parse as JSON and hold every key of contract §4.1.
  @Test func linesParseWithTheContractKeys() throws {
    var session = CardSession(configuration: CardConfiguration())
    _ = session.receive(S.motion(at: 0.1, pitch: 0.2, roll: 0.1))
    _ = session.perform(.flip, at: 0.2)
    let frames = session.finish()
    let encoder = JSONLFrameEncoder()
    for frame in frames {
      let object =
        try JSONSerialization.jsonObject(with: Data(encoder.line(for: frame).utf8))
        as! [String: Any]
      #expect(Set(object.keys) == ["t", "attitude", "gravity", "rotationRate", "card", "state"])
      let card = object["card"] as! [String: Any]
      for key in ["rotationX", "rotationY", "flipAngle", "face", "flipped", "transform"] {
        #expect(card[key] != nil, "card.\(key)")
      }
      #expect((card["transform"] as! [Double]).count == 16)
    }
  }
}
