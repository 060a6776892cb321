import Attitude

/// Device motion as an `AsyncSequence`, from a live device or a recording,
/// with no card:
///
/// ```swift
/// let manager = AsyncMotionManager(.device(path: nil))
/// for try await motion in manager.updates() {
///   print(motion.attitude.pitch, motion.attitude.roll)
/// }
/// ```
///
/// Each iteration opens the source and runs a ``DeviceMotionManager``'s loop
/// on a thread of its own (not the caller's, not the concurrency pool's);
/// nothing is open before it nor after it. The sequence ends when the
/// recording ends, throws when the source cannot be opened or read (or the
/// device went away), and ends at once when the iterating task is cancelled:
/// the loop is woken, the device or file is closed, and only then does the
/// `for` loop see the end. Leaving the `for` loop with `break` stops the loop
/// too, without waiting for it.
///
/// While the loop runs, SIGINT and SIGTERM end the sequence (as they end
/// `tilt-cli live`) instead of the process; their handlers are put back
/// after it. No button is read: none starts or stops the updates.
/// (The Tilt library adds the card's frames: `frames()`.)
public struct AsyncMotionManager: Sendable {
  /// The name ``MotionInput`` had here before 0.4.0.
  @available(*, deprecated, renamed: "MotionInput")
  public typealias Source = MotionInput

  /// Where the motion comes from.
  public var source: MotionInput
  public var configuration: DeviceMotionConfiguration
  /// Seconds of sample time between updates of ``updates(buffering:)``;
  /// 0 gives every sample.
  public var deviceMotionUpdateInterval = 0.0

  public init(_ source: MotionInput, configuration: DeviceMotionConfiguration = .init()) {
    self.source = source
    self.configuration = configuration
  }

  /// Each `DeviceMotion` the source makes (or one per
  /// ``deviceMotionUpdateInterval``), oldest first. `buffering` says what
  /// happens when the consumer falls behind; by default ``UpdateBuffering/newest(_:)``
  /// with 1 for a device or a paced replay (the latest motion, never a stale
  /// queue; the loop never waits), ``UpdateBuffering/waitsForConsumer(_:)``
  /// with 64 for a replay as fast as possible (every sample, read as the
  /// consumer takes them).
  public func updates(buffering: UpdateBuffering? = nil) -> MotionUpdateSequence<DeviceMotion> {
    let manager = self
    let buffering = (buffering ?? defaultBuffering).fitted(to: source)
    return MotionUpdateSequence(buffering: buffering) { send, stop in
      let motion = DeviceMotionManager(
        stop.untilCancelled(manager.source, configuration: manager.configuration),
        configuration: manager.configuration)
      motion.deviceMotionUpdateInterval = manager.deviceMotionUpdateInterval
      motion.participants.append(stop)
      motion.readsWhen = stop.hasRoom
      stop.onCancel = { [unowned motion] in motion.requestEnd() }
      try motion.startDeviceMotionUpdates(handler: send)
      try motion.run()
    }
  }

  /// What a sequence of this source keeps when its consumer falls behind,
  /// unless told: every update of a replay at full speed, the newest otherwise.
  public var defaultBuffering: UpdateBuffering {
    source.isFullSpeedReplay ? .waitsForConsumer(64) : .newest(1)
  }
}
