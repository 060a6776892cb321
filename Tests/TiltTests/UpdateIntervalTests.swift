import Attitude
import Testing
import Tilt
import TiltCard

/// The card's Core Motion surface is its `DeviceMotionManager`'s: the
/// interval goes to the one throttle (Attitude's `MotionManager`), and an
/// app's handler leaves the card's frames as they are.
@Suite struct UpdateIntervalTests {
  static func card(_ sink: @escaping ([CardFrame]) -> Void) throws -> TiltMotionManager {
    try TiltMotionManager(
      .recording(path: CardFramesTests.demo, speed: nil), sink: FrameHandlerSink(sink),
      onNote: { _ in })
  }

  @Test func theCardForwardsItsIntervalToTheOneThrottle() throws {
    var frames: [CardFrame] = []
    let card = try Self.card { frames += $0 }
    card.deviceMotionUpdateInterval = 0.1
    #expect(card.motion.deviceMotionUpdateInterval == 0.1)
    #expect(card.pipeline.manager.deviceMotionUpdateInterval == 0.1)
    var times: [Double] = []
    try card.startDeviceMotionUpdates { times.append($0.timestamp) }
    try card.run(endingOn: [])
    #expect(times.count > 10)
    #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 0.1 - 1e-9 })

    var plain: [CardFrame] = []
    try Self.card { plain += $0 }.run(endingOn: [])
    #expect(!plain.isEmpty && frames == plain)
  }

  @Test func availabilityAndStateAreTheManagers() throws {
    let card = try Self.card { _ in }
    #expect(card.isDeviceMotionAvailable == card.motion.isDeviceMotionAvailable)
    #expect(card.isDeviceMotionActive && card.motion.isDeviceMotionActive)
    var events: [DeviceMotionManager.LifecycleEvent] = []
    card.onLifecycle = { events.append($0) }
    try card.stopDeviceMotionUpdates()
    #expect(!card.isDeviceMotionActive && !card.motion.isDeviceMotionActive)
    try card.startDeviceMotionUpdates()
    #expect(card.isDeviceMotionActive)
    #expect(events == [.stopped, .started])
  }
}
