import Motion
import TiltCard

extension AsyncMotionManager {
  /// Each card frame as it is shown (contract §4): one per display frame while
  /// the card moves, or one per sample with ``TiltConfiguration/everySample``.
  /// `card` says what the card does; its motion is the manager's
  /// ``AsyncMotionManager/configuration``. Buffering as in
  /// ``AsyncMotionManager/updates(buffering:)``.
  ///
  /// Any source runs ``TiltMotionManager/run(endingOn:)``; the card's primary
  /// button flips it, and no button of a live device starts stopped updates
  /// (``TiltMotionManager/buttonsStartUpdates`` is left `false`).
  public func frames(card: TiltConfiguration = .init(), buffering: UpdateBuffering? = nil)
    -> MotionUpdateSequence<CardFrame>
  {
    var configuration = card
    configuration.deviceMotion = self.configuration
    let source = self.source
    let buffering = (buffering ?? defaultBuffering).fitted(to: source)
    return MotionUpdateSequence(buffering: buffering) {
      [configuration] send, stop in
      let input = stop.untilCancelled(source, configuration: configuration.deviceMotion)
      let card = try TiltMotionManager(
        input, configuration: configuration,
        sink: FrameHandlerSink { frames in frames.forEach(send) })
      card.participants.append(stop)
      card.motion.readsWhen = stop.hasRoom
      stop.onCancel = { [unowned card] in card.pipeline.requestEnd() }
      try card.run()
    }
  }
}
