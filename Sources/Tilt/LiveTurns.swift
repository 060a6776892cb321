import EvdevCore
import Motion

extension TiltPipeline {
  /// Turns `loop` with `device` first, then the loop's own participants and
  /// `participants`, until `ended` says why, an end request (the loop's or
  /// ``requestEnd()``), or a signal that ends (SIGWINCH redraws); `afterTurn`
  /// ends every turn. What the evdev and IIO managers share.
  func liveTurns(
    on loop: EventLoop, device: any LoopParticipant, participants: () -> [any LoopParticipant],
    ended: () -> TiltMotionManager.Ending?, afterTurn: () throws -> Void
  ) throws -> TiltMotionManager.Ending {
    try loop.turns(
      first: device, participants: participants,
      ending: { ended() ?? (endRequested ? .requested : nil) }, requested: .requested,
      onWindowChange: { try sink.redraw() }, afterTurn: afterTurn)
  }

  /// Keeps what the fusion learned of the gyroscope's bias for the next
  /// start of `device`, when a rest of this run confirmed it; a store that
  /// cannot be written is said through `onNote`.
  func storeGyroscopeBias(
    in store: GyroBiasStore?, for device: DeviceInfo,
    onNote: (TiltMotionManager.Note) -> Void
  ) {
    manager.storeGyroscopeBias(in: store, for: device, onNote: onNote)
  }
}
