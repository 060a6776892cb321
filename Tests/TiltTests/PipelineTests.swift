import Attitude
import Foundation
import SensorData
import SystemCalls
import Testing
import Tilt
import TiltCard

/// The pipeline through the library's public API, as an app uses it.
@Suite struct PipelineTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

  /// The jsonl bytes of every frame `source` makes at full speed.
  static func jsonl(_ source: any MotionSource, configuration: TiltConfiguration = .init()) throws
    -> String
  {
    let encoder = JSONLFrameEncoder()
    var bytes: [UInt8] = []
    let sink = FrameHandlerSink { frames in
      for frame in frames { encoder.encode(frame, into: &bytes) }
    }
    let pipeline = TiltPipeline(
      configuration: configuration, hasGyroscope: source.capabilities.hasGyroscope, sink: sink)
    try play(source, through: pipeline, speed: nil)
    return String(decoding: bytes, as: UTF8.self)
  }

  static func golden(_ name: String) throws -> String {
    try String(contentsOfFile: path("Tests/CLITests/Golden/\(name)"), encoding: .utf8)
  }

  /// The demo's generated frames, fed straight in, give what the CLI prints
  /// for the bundled file.
  @Test func theGeneratedDemoGivesTheGoldenFrames() throws {
    let output = try Self.jsonl(DemoMotionSource(configuration: .init()))
    #expect(output == (try Self.golden("demo.jsonl")))
  }

  @Test(arguments: [
    ("recordings/demo.evemu", "demo.jsonl"),
    ("recordings/roll-pitch.csv", "roll-pitch.jsonl"),
    ("recordings/joystick-sweep.evemu", "joystick-sweep.jsonl"),
  ])
  func recordingsGiveTheGoldenFrames(file: String, golden: String) throws {
    let configuration = TiltConfiguration()
    let source = try Recording.open(path: Self.path(file), configuration: configuration)
    #expect(try Self.jsonl(source, configuration: configuration) == (try Self.golden(golden)))
  }

  /// The accelerometer's range goes from the recording's absinfo (±32768
  /// at 8192 units per g) to the fusion, which so knows a clipped reading.
  @Test func theAccelerometerRangeReachesTheFusion() throws {
    let source = try Recording.open(
      path: Self.path("recordings/demo.evemu"), configuration: .init())
    #expect(source.capabilities.accelerometerRange == 4)
    // ±2097152 at 1024 units per °/s: 2048 °/s.
    #expect(source.capabilities.gyroscopeRange == 2048 * .pi / 180)
    let pipeline = TiltPipeline(
      configuration: .init(), hasGyroscope: true,
      accelerometerRange: source.capabilities.accelerometerRange,
      gyroscopeRange: source.capabilities.gyroscopeRange, sink: FrameHandlerSink { _ in })
    #expect(pipeline.manager.configuration.fusionParameters.accelerometerRange == 4)
    #expect(pipeline.manager.configuration.fusionParameters.gyroscopeRange == 2048 * .pi / 180)
  }

  /// Attitude's manager is used the Core Motion way: its handler feeds the
  /// card, observers see every motion, and it stops and starts with the card.
  @Test func motionUpdatesFollowTheCard() throws {
    var motions: [DeviceMotion] = []
    var frames: [CardFrame] = []
    let pipeline = TiltPipeline(
      configuration: .init(), hasGyroscope: true, sink: FrameHandlerSink { frames += $0 })
    pipeline.motionObservers.append { motions.append($0) }
    var source = try DemoMotionSource(configuration: .init())
    for _ in 0..<500 { try pipeline.take(try #require(try source.next())) }
    #expect(motions.count == 500)
    #expect(pipeline.manager.isDeviceMotionActive)
    #expect(pipeline.manager.deviceMotion == motions.last)

    try pipeline.perform(.stopUpdates, at: 2.0)
    #expect(pipeline.session.state == .stopped)
    #expect(!pipeline.manager.isDeviceMotionActive)
    for _ in 0..<100 { try pipeline.take(try #require(try source.next())) }
    #expect(motions.count == 500, "no motion while stopped")

    try pipeline.perform(.startUpdates, at: 2.5)
    #expect(pipeline.session.state == .active)
    #expect(pipeline.manager.isDeviceMotionActive)
    try pipeline.take(try #require(try source.next()))
    #expect(motions.count == 501)
  }
}

@Suite struct RetimedStepTests {
  /// A live loop moves a reopened device's samples (whose decoder counts
  /// from 0 again) on to the pipeline's clock by setting the step's time;
  /// the motion must go with it, or the card's frames stay at the time of
  /// the restart and a flip never turns (VM scenario 21 found it).
  @Test func aReopenedDevicesSamplesMoveTheCardOn() throws {
    var configuration = TiltConfiguration()
    configuration.everySample = true
    var frames: [CardFrame] = []
    let pipeline = TiltPipeline(
      configuration: configuration, hasGyroscope: false, sink: FrameHandlerSink { frames += $0 })
    func sample(_ t: Double) -> MotionStep {
      MotionStep(
        time: t, motion: MotionSample(time: t, acceleration: Vector3(0, 0, 1)), pressedButtons: [])
    }
    for i in 0..<50 { try pipeline.take(sample(Double(i) / 100)) }
    try pipeline.perform(.stopUpdates, at: 0.5)
    // Reopened 10 s later: the decoder's times start at 0 again.
    try pipeline.perform(.startUpdates, at: 10.5)
    try pipeline.perform(.flip, at: 10.5)
    frames = []
    for i in 0..<100 {
      var step = sample(Double(i) / 100)
      step.time = 10.5 + step.time
      try pipeline.take(step)
    }
    #expect(frames.count >= 100)
    let times = frames.map(\.t)
    #expect(times.last.map { abs($0 - 11.49) < 1e-9 } == true, "last frame at \(times.last ?? 0)")
    #expect(zip(times, times.dropFirst()).filter { $1 <= $0 }.count <= 1)
    #expect(frames.last.map { $0.flipAngle > 179 } == true, "the flip turned the card over")
  }
}

/// A participant of the paced replay's `poll()`.
private final class Participant: LoopParticipant {
  let pipeline: TiltPipeline
  var deadline: MonotonicInstant?
  var calls = 0
  var pollDescriptors: [Int32] { [] }

  init(pipeline: TiltPipeline, after seconds: Double) {
    self.pipeline = pipeline
    deadline = .now + .seconds(seconds)
  }

  func service(ready: Set<Int32>) throws {
    calls += 1
    deadline = nil
    try pipeline.perform(.flip)
    pipeline.requestEnd()
  }
}

@Suite struct LoopParticipantTests {
  /// A participant's deadline wakes the paced replay; what it performs happens
  /// at the replay's time, and it can end the replay.
  @Test func aParticipantJoinsThePacedReplay() throws {
    var frames: [CardFrame] = []
    let configuration = TiltConfiguration()
    let source = try Recording.open(
      path: PipelineTests.path("recordings/roll-pitch.csv"), configuration: configuration)
    let pipeline = TiltPipeline(
      configuration: configuration, hasGyroscope: source.capabilities.hasGyroscope,
      sink: FrameHandlerSink { frames += $0 })
    let participant = Participant(pipeline: pipeline, after: 0.1)
    try play(source, through: pipeline, speed: 2, participants: [participant])  // 1.5 s of wall time if nobody ends it
    #expect(participant.calls == 1)
    #expect(pipeline.session.flipped, "the flip was performed")
    let last = try #require(frames.last)
    // Ended early: at about 0.2 s of recording time (0.1 s of wall time at 2×).
    #expect(last.t < 1.0, "ended at \(last.t) s of the 3 s recording")
  }
}

/// Asks to run "now" while it has work, as libmicrohttpd does with data in
/// hand: its deadline is the time it is asked.
private final class EagerParticipant: LoopParticipant {
  var work = 3
  var servedAt: [Double] = []
  var pollDescriptors: [Int32] { [] }
  var deadline: MonotonicInstant? { work > 0 ? .now : nil }
  func service(ready: Set<Int32>) throws {
    guard work > 0 else { return }
    work -= 1
    servedAt.append(LoopClock.now())
  }
}

@Suite struct EagerParticipantTests {
  /// A deadline of "now" is served on that turn, not found "not yet" by a
  /// clock read before it and left to spin the loop (the live page's last
  /// frame of a motion waited for the device's next event that way).
  @Test func aDeadlineOfNowIsServedAtOnce() throws {
    let configuration = TiltConfiguration()
    let source = try Recording.open(
      path: PipelineTests.path("recordings/roll-pitch.csv"), configuration: configuration)
    let pipeline = TiltPipeline(
      configuration: configuration, hasGyroscope: source.capabilities.hasGyroscope,
      sink: FrameHandlerSink { _ in })
    let eager = EagerParticipant()
    let start = LoopClock.now()
    try play(source, through: pipeline, speed: 4, participants: [eager])  // 3 s of recording in 0.75 s
    #expect(eager.work == 0, "served \(3 - eager.work) of 3 times")
    // All within the first display frames of the replay, not at its end.
    #expect((eager.servedAt.last ?? .infinity) - start < 0.3)
  }
}

/// Performs `commands` at given wall times of a paced replay, each once the
/// frames have shown the one before (`framesShown` grew since): on a busy
/// machine two commands due in one turn would otherwise change the state
/// twice between two frames, as no person at a keyboard can.
private final class Commander: LoopParticipant {
  let pipeline: TiltPipeline
  let start = LoopClock.now()
  var script: [(wall: Double, command: CardSession.Command)]
  let framesShown: () -> Int
  private var framesAtLastCommand = -1
  /// The source time each command was performed at.
  var performed: [(time: Double, command: CardSession.Command)] = []

  init(
    pipeline: TiltPipeline, script: [(wall: Double, command: CardSession.Command)],
    framesShown: @escaping () -> Int
  ) {
    self.pipeline = pipeline
    self.script = script
    self.framesShown = framesShown
  }

  private var lastCommandShown: Bool { framesShown() > framesAtLastCommand }

  var pollDescriptors: [Int32] { [] }
  var deadline: MonotonicInstant? {
    guard lastCommandShown else { return nil }  // the frame's own deadline wakes the loop
    return script.first.map { MonotonicInstant(nanoseconds: Int64((start + $0.wall) * 1e9)) }
  }

  func service(ready: Set<Int32>) throws {
    guard lastCommandShown, let next = script.first, start + next.wall <= LoopClock.now() else {
      return
    }
    script.removeFirst()
    performed.append((pipeline.currentTime(), next.command))
    framesAtLastCommand = framesShown()
    try pipeline.perform(next.command)
  }
}

@Suite struct PacedCommandTests {
  /// Stop and start (the terminal's `p`) alternate exactly, and each change is
  /// drawn when it happens, not when the next sample or the restart comes;
  /// a flip while stopped is drawn at once too (it restarts updates).
  @Test func toggleAlternatesAndEachChangeIsShownWhenItHappens() throws {
    var frames: [CardFrame] = []
    let configuration = TiltConfiguration()
    // The demo rests face up for its first 1.5 s: nothing moves, so no sample
    // makes a frame; every frame there comes from a command.
    let source = try DemoMotionSource(configuration: configuration)
    let pipeline = TiltPipeline(
      configuration: configuration, hasGyroscope: source.capabilities.hasGyroscope,
      sink: FrameHandlerSink { frames += $0 })
    let commander = Commander(
      pipeline: pipeline,
      script: [
        (0.05, .toggleUpdates), (0.10, .toggleUpdates), (0.15, .toggleUpdates), (0.20, .flip),
      ], framesShown: { frames.count })
    try play(source, through: pipeline, speed: 6, participants: [commander])  // 12 s of recording in 2 s; rest until 0.25 s
    #expect(commander.performed.count == 4)

    var changes: [(t: Double, state: UpdateState)] = []
    for frame in frames where changes.last?.state != frame.state {
      changes.append((frame.t, frame.state))
    }
    #expect(changes.map(\.state) == [.active, .stopped, .active, .stopped, .active])
    // Each change shows within two display frames of its command.
    for (change, command) in zip(changes.dropFirst(), commander.performed) {
      #expect(
        change.t >= command.time && change.t - command.time < 2.0 / 60 + 1e-9,
        "\(command.command) at \(command.time) s shown at \(change.t) s")
    }
    let flipStart = try #require(frames.first { $0.t >= commander.performed[3].time })
    #expect(flipStart.t - commander.performed[3].time < 2.0 / 60 + 1e-9)
    #expect(frames.contains { $0.flipAngle > 1 && $0.flipAngle < 179 })
  }
}
