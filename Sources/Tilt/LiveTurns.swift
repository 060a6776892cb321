import EvdevCore
import Motion

/// What the two live managers (``TiltMotionManager`` for evdev,
/// ``IIOMotionManager`` for IIO) share: their descriptors as a participant
/// of their loop, the turns of that loop, and the bias kept at the end.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
final class LiveDeviceParticipant: LoopParticipant {
  private let descriptors: () -> [Int32]
  private let due: () -> MonotonicInstant?
  private let serve: (Set<Int32>) throws -> Void

  init(
    descriptors: @escaping () -> [Int32], deadline: @escaping () -> MonotonicInstant?,
    service: @escaping (Set<Int32>) throws -> Void
  ) {
    self.descriptors = descriptors
    due = deadline
    serve = service
  }

  var pollDescriptors: [Int32] { descriptors() }
  var deadline: MonotonicInstant? { due() }
  func service(ready: Set<Int32>) throws { try serve(ready) }
}

extension TiltPipeline {
  /// Turns `loop` with `device` first, then the loop's own participants and
  /// `participants`, until `ended` says why, an end request, or a signal
  /// that ends (SIGWINCH redraws); `afterTurn` ends every turn.
  func liveTurns(
    on loop: EventLoop, device: any LoopParticipant, participants: () -> [any LoopParticipant],
    ended: () -> TiltMotionManager.Ending?, afterTurn: () throws -> Void
  ) throws -> TiltMotionManager.Ending {
    let others = loop.participants
    defer { loop.participants = others }
    while true {
      if let ended = ended() { return ended }
      if endRequested { return .requested }
      loop.participants = [device] + others + participants()
      for event in try loop.turn().events {
        switch event {
        case .signal(.windowChange): try sink.redraw()
        case .signal, .endRequested: return .requested
        }
      }
      try afterTurn()
    }
  }

  /// Keeps what the fusion learned of the gyroscope's bias for the next
  /// start of `device`, when a rest of this run confirmed it; a store that
  /// cannot be written is said through `onNote`.
  func storeGyroscopeBias(
    in store: GyroBiasStore?, for device: DeviceInfo,
    onNote: (TiltMotionManager.Note) -> Void
  ) {
    guard let store, let estimate = manager.gyroscopeBiasEstimate, estimate.isConfirmedByRest
    else { return }
    do throws(StoreError) {
      try store.save(StoredGyroBias(estimate, samples: 0, origin: .rest), for: device)
    } catch {
      onNote(.storedGyroscopeBiasProblem(error))
    }
  }
}
