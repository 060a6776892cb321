import Attitude
import Foundation
import Motion
import SystemCalls
import TiltCard

/// What an update sequence takes from the loop: its motion, its card frames.
struct UpdateTaps: Sendable {
  var motion: (@Sendable (DeviceMotion) -> Void)?
  var frame: (@Sendable (CardFrame) -> Void)?
}

/// The loop behind an update sequence, on a thread of its own: it opens the
/// source, runs the library's loop until the end or the consumer's
/// cancellation, and closes the source before it says the loop has ended.
enum UpdateLoop {
  static func start<Element: Sendable>(
    manager: AsyncMotionManager, taps: UpdateTaps, channel: UpdateChannel<Element>
  ) {
    let thread = Thread {
      do {
        // Everything the loop opened is released when this call returns.
        try run(manager: manager, taps: taps, stop: StopOnWake(wake: channel.wake.get(), channel))
        channel.finish(throwing: nil)
      } catch {
        channel.finish(throwing: error)
      }
    }
    thread.name = "tilt updates"
    thread.start()
  }

  private static func run(manager: AsyncMotionManager, taps: UpdateTaps, stop: StopOnWake) throws {
    if stop.isCancelled { return }
    switch manager.source {
    case .device(let path):
      try runDevice(path: path, manager: manager, taps: taps, stop: stop)
    case .recording(let path, let speed):
      let source = try RecordingSource.open(path: path, configuration: manager.configuration)
      try runRecording(source, speed: speed, manager: manager, taps: taps, stop: stop)
    case .source(let speed, let make):
      try runRecording(make(), speed: speed, manager: manager, taps: taps, stop: stop)
    }
  }

  /// ``TiltMotionManager/run(endingOn:)`` with the manager's default sink, which drops
  /// the card's frames; the stop participant ends it from the consumer's side.
  private static func runDevice(
    path: String?, manager: AsyncMotionManager, taps: UpdateTaps, stop: StopOnWake
  ) throws {
    let live = try TiltMotionManager(devicePath: path, configuration: manager.configuration)
    stop.pipeline = live.pipeline
    live.participants.append(stop)
    if let motion = taps.motion {
      live.deviceMotionUpdateInterval = manager.deviceMotionUpdateInterval
      try live.startDeviceMotionUpdates(handler: motion)
    }
    if let frame = taps.frame { live.observeFrames(frame) }
    if try live.run() == .deviceWentAway {
      throw TiltError.deviceGone(path: live.devicePath)
    }
  }

  /// ``RecordingPlayer/play(_:speedFactor:)``, paced or as fast as it goes.
  private static func runRecording(
    _ source: any MotionSource, speed: Double?, manager: AsyncMotionManager, taps: UpdateTaps,
    stop: StopOnWake
  ) throws {
    let configuration = manager.configuration
    let sink = FrameHandlerSink { frames in
      if let frame = taps.frame { frames.forEach(frame) }
    }
    let pipeline = TiltPipeline(
      configuration: configuration, hasGyroscope: source.hasGyroscope, buttons: source.buttons,
      accelerometerRange: source.accelerometerRange, gyroscopeRange: source.gyroscopeRange,
      sink: sink)
    if let send = taps.motion {
      var interval = UpdateInterval(seconds: manager.deviceMotionUpdateInterval)
      pipeline.motionObservers.append { motion in
        if interval.isDue(motion.timestamp) { send(motion) }
      }
    }
    stop.pipeline = pipeline
    let player = RecordingPlayer(pipeline: pipeline)
    player.participants.append(stop)
    try player.play(UntilCancelled(source, stop: stop), speedFactor: speed)
  }
}

/// A loop participant that ends the loop when the consumer has gone: the
/// cancellation, on the consumer's side, writes its wake pipe.
final class StopOnWake: LoopParticipant {
  private let wake: WakePipe
  private let cancelled: () -> Bool
  weak var pipeline: TiltPipeline?

  init<Element>(wake: WakePipe, _ channel: UpdateChannel<Element>) {
    self.wake = wake
    cancelled = { channel.isCancelled }
  }

  /// True once the consumer has gone.
  var isCancelled: Bool { cancelled() }

  var pollDescriptors: [Int32] { [wake.fileDescriptor] }
  var deadline: MonotonicInstant? { nil }

  func service(ready: Set<Int32>) throws {
    guard ready.contains(wake.fileDescriptor) else { return }
    wake.drain()
    if isCancelled { pipeline?.requestEnd() }
  }
}

/// A recording that ends early when the consumer has gone: a replay as fast
/// as it goes never sleeps in the loop's `poll()`, so it asks at each step.
struct UntilCancelled: MotionSource {
  private var source: any MotionSource
  private let stop: StopOnWake

  init(_ source: any MotionSource, stop: StopOnWake) {
    self.source = source
    self.stop = stop
  }

  var hasGyroscope: Bool { source.hasGyroscope }
  var buttons: Set<UInt16>? { source.buttons }
  var accelerometerRange: Double? { source.accelerometerRange }
  var gyroscopeRange: Double? { source.gyroscopeRange }
  var notes: [String] { source.notes }

  mutating func next() throws -> SourceItem? {
    stop.isCancelled ? nil : try source.next()
  }
}

/// At most one update per `seconds` of sample time, as
/// ``TiltMotionManager/deviceMotionUpdateInterval`` does it; 0 lets every one through.
struct UpdateInterval {
  let seconds: Double
  private var last: Double?

  init(seconds: Double) { self.seconds = seconds }

  mutating func isDue(_ time: Double) -> Bool {
    if let last, seconds > 0, time - last < seconds, time >= last { return false }
    last = time
    return true
  }
}
