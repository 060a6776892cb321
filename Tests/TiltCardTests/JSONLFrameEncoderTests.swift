import Attitude
import Foundation
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

  /// The lines parse as JSON and hold every key of SPEC §4.
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
