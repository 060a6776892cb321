import Attitude
import Testing

@testable import TiltCard

@Suite struct CardPoseTests {
  @Test func gainTurnsRadiansIntoCardDegrees() {
    let pose = CardPose(
      attitude: Attitude(pitch: 0.3, roll: -0.2, yaw: 1), configuration: CardConfiguration())
    #expect(abs(pose.rotationX - 6) < 1e-9)
    #expect(abs(pose.rotationY - -4) < 1e-9)
  }

  @Test(arguments: [0.9, -0.9, 1.4])
  func clampsToMaxTilt(radians: Double) {
    var config = CardConfiguration()
    config.maxTilt = 12
    let pose = CardPose(
      attitude: Attitude(pitch: radians, roll: -radians, yaw: 0), configuration: config)
    #expect(abs(pose.rotationX) == 12)
    #expect(abs(pose.rotationY) == 12)
    #expect(pose.rotationX.sign == radians.sign)
  }

  @Test func customGain() {
    var config = CardConfiguration()
    config.gain = 10
    let pose = CardPose(attitude: Attitude(pitch: 0.5, roll: 0, yaw: 0), configuration: config)
    #expect(abs(pose.rotationX - 5) < 1e-9)
  }

  @Test func reduceMotionKeepsTheCardStill() {
    var config = CardConfiguration()
    config.reduceMotion = true
    let pose = CardPose(attitude: Attitude(pitch: 0.5, roll: 0.4, yaw: 0), configuration: config)
    #expect(pose == .flat)
  }

  @Test func outOfRangeOptionsAreNamed() {
    var config = CardConfiguration()
    config.maxTilt = 95
    #expect(throws: CardConfiguration.Problem.self) { try config.validated() }
    do {
      _ = try config.validated()
    } catch {
      #expect(error.property == .maxTilt && error.value == "95", "\(error)")
      #expect(error.description.hasPrefix("maxTilt 95 is out of range"), "\(error)")
    }
    config.maxTilt = 15
    config.perspective = 2
    #expect(throws: CardConfiguration.Problem.self) { try config.validated() }
    #expect(throws: Never.self) { try CardConfiguration().validated() }
  }

  /// The gain's range is the one the CLI's `--gain` takes (before, the library
  /// took any finite gain and the CLI ±1000).
  @Test func gainOutsideItsRangeIsAProblem() {
    var config = CardConfiguration()
    config.gain = 2000
    #expect(throws: CardConfiguration.Problem.self) { try config.validated() }
    config.gain = CardConfiguration.gainRange.upperBound
    #expect(throws: Never.self) { try config.validated() }
  }
}
