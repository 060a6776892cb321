import Motion
import TiltCard

extension AsyncMotionManager {
  /// Each card frame as it is shown (contract §4): one per display frame while
  /// the card moves, or one per sample with ``TiltConfiguration/everySample``.
  /// `card` says what the card does; its motion is the manager's
  /// ``AsyncMotionManager/configuration``. Buffering as in
  /// ``AsyncMotionManager/updates(buffering:)``.
  ///
  /// A live device runs ``TiltMotionManager/run(endingOn:)``, a recording
  /// ``RecordingPlayer/play(_:speedFactor:)``; the card's primary button
  /// flips it, and no button starts stopped updates
  /// (``TiltMotionManager/buttonsStartUpdates`` is left `false`).
  public func frames(card: TiltConfiguration = .init(), buffering: UpdateBuffering? = nil)
    -> MotionUpdateSequence<CardFrame>
  {
    var configuration = card
    configuration.deviceMotion = self.configuration
    let source = self.source
    return MotionUpdateSequence(buffering: buffering ?? defaultBuffering) {
      [configuration] send, stop in
      switch stop.untilCancelled(source, configuration: configuration.deviceMotion) {
      case .device(let path):
        let live = try TiltMotionManager(devicePath: path, configuration: configuration)
        live.participants.append(stop)
        stop.onCancel = { [unowned live] in live.pipeline.requestEnd() }
        live.observeFrames(send)
        if try live.run() == .deviceWentAway {
          throw TiltError.deviceGone(path: live.devicePath)
        }
      case .recording(let path, let speed):
        let recording = try RecordingSource.open(path: path, configuration: configuration)
        try Self.play(recording, speed: speed, configuration: configuration, send: send, stop: stop)
      case .source(let speed, let make):
        try Self.play(make(), speed: speed, configuration: configuration, send: send, stop: stop)
      }
    }
  }

  /// ``RecordingPlayer/play(_:speedFactor:)``, paced or as fast as it goes.
  private static func play(
    _ source: any MotionSource, speed: Double?, configuration: TiltConfiguration,
    send: @escaping @Sendable (CardFrame) -> Void, stop: UpdateStop
  ) throws {
    let pipeline = TiltPipeline(
      configuration: configuration, hasGyroscope: source.hasGyroscope, buttons: source.buttons,
      accelerometerRange: source.accelerometerRange, gyroscopeRange: source.gyroscopeRange,
      sink: FrameHandlerSink { frames in frames.forEach(send) })
    stop.onCancel = { [unowned pipeline] in pipeline.requestEnd() }
    let player = RecordingPlayer(pipeline: pipeline)
    player.participants.append(stop)
    try player.play(source, speedFactor: speed)
  }
}
