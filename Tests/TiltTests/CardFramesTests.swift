import Attitude
import Testing
import Tilt
import TiltCard

/// The card on Motion's manager: the pipeline sees the motion an app of
/// Motion alone sees, and `frames()` gives the card's frames as an `AsyncSequence`.
@Suite struct CardFramesTests {
  static let demo = PipelineTests.path("recordings/demo.evemu")

  @Test(arguments: ["recordings/demo.evemu", "recordings/roll-pitch.csv"])
  func thePipelinesMotionsAreTheManagers(file: String) throws {
    let path = PipelineTests.path(file)
    let configuration = TiltConfiguration()
    let source = try Recording.open(path: path, configuration: configuration)
    let pipeline = TiltPipeline(
      configuration: configuration, capabilities: source.capabilities,
      sink: FrameHandlerSink { _ in })
    var seen: [DeviceMotion] = []
    pipeline.motionObservers.append { seen.append($0) }
    try play(source, through: pipeline, speed: nil)
    let manager = DeviceMotionManager(.recording(path: path, speed: nil))
    var handled: [DeviceMotion] = []
    try manager.startDeviceMotionUpdates { handled.append($0) }
    try manager.run(endingOn: [])
    #expect(!seen.isEmpty)
    #expect(seen == handled)
  }

  /// The card's frames of a replay are the frames the CLI's sink would get.
  @Test func aReplaysFramesAreThePipelines() async throws {
    var frames: [CardFrame] = []
    for try await frame in AsyncMotionManager(.recording(path: Self.demo, speed: nil)).frames() {
      frames.append(frame)
    }
    var expected: [CardFrame] = []
    let configuration = TiltConfiguration()
    let source = try Recording.open(path: Self.demo, configuration: configuration)
    let pipeline = TiltPipeline(
      configuration: configuration, capabilities: source.capabilities,
      sink: FrameHandlerSink { expected += $0 })
    try play(source, through: pipeline, speed: nil)
    #expect(!frames.isEmpty)
    #expect(frames == expected)
  }
}
