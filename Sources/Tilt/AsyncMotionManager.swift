import Attitude
import Motion
import TiltCard

/// Device motion and card frames as `AsyncSequence`s, from a live device or
/// a recording:
///
/// ```swift
/// let manager = AsyncMotionManager(.device(path: nil))
/// for try await motion in manager.updates() {
///   print(motion.attitude.pitch, motion.attitude.roll)
/// }
/// ```
///
/// Each iteration opens the source and runs the live loop on a thread of its
/// own (not the caller's, not the concurrency pool's); nothing is open before
/// it nor after it. The sequence ends when the recording ends, throws when
/// the source cannot be opened or read (or the device went away), and
/// ends at once when the iterating task is cancelled: the loop is woken, the
/// device or file is closed, and only then does the `for` loop see the end.
/// Leaving the `for` loop with `break` stops the loop too, without waiting
/// for it.
///
/// The loop is ``TiltMotionManager/run(endingOn:)`` for a device and
/// ``RecordingPlayer/play(_:speedFactor:)`` for a paced replay: while it
/// runs, SIGINT and SIGTERM end the sequence (as they end `tilt-cli live`)
/// instead of the process, and SIGPIPE is ignored.
///
/// Motion alone needs no card: ``updates(buffering:)`` gives the card a sink
/// that drops its frames. The card's flip button flips only that unseen card,
/// and no button starts stopped updates
/// (``TiltMotionManager/buttonsStartUpdates`` is left `false`): with an idle
/// stop in the configuration, updates that stopped for idle stay stopped.
public struct AsyncMotionManager: Sendable {
  /// Where the motion comes from.
  public enum Source: Sendable {
    /// A live evdev device: its `/dev/input/eventN` node, or `nil` for the
    /// first motion device found (``DeviceChoice/firstMotionDevice()``).
    case device(path: String?)
    /// An evemu recording or CSV log, held to its own clock at `speed` times
    /// real time, or as fast as the consumer takes it with `nil`.
    case recording(path: String, speed: Double?)
    /// Any ``MotionSource`` (the bundled demo, an app's own), made on the
    /// loop's thread by `make` when the iteration starts, played as
    /// ``recording(path:speed:)`` plays a file.
    case source(speed: Double?, make: @Sendable () throws -> any MotionSource)
  }

  public var source: Source
  public var configuration: TiltConfiguration
  /// Seconds of sample time between updates of ``updates(buffering:)``;
  /// 0 gives every sample.
  public var deviceMotionUpdateInterval = 0.0

  public init(_ source: Source, configuration: TiltConfiguration = .init()) {
    self.source = source
    self.configuration = configuration
  }

  /// Each `DeviceMotion` the source makes (or one per
  /// ``deviceMotionUpdateInterval``), oldest first. `buffering` says what
  /// happens when the consumer falls behind; by default ``UpdateBuffering/newest(_:)``
  /// with 1 for a device or a paced replay (the latest motion, never a stale
  /// queue), ``UpdateBuffering/waitsForConsumer(_:)`` with 64 for a replay as
  /// fast as possible (every sample).
  public func updates(buffering: UpdateBuffering? = nil) -> MotionUpdateSequence<DeviceMotion> {
    MotionUpdateSequence(manager: self, buffering: buffering ?? defaultBuffering) { channel in
      UpdateTaps(motion: { channel.send($0) })
    }
  }

  /// Each card frame as it is shown (SPEC §4): one per display frame while
  /// the card moves, or one per sample with
  /// ``TiltConfiguration/everySample``. Buffering as in ``updates(buffering:)``.
  public func frames(buffering: UpdateBuffering? = nil) -> MotionUpdateSequence<CardFrame> {
    MotionUpdateSequence(manager: self, buffering: buffering ?? defaultBuffering) { channel in
      UpdateTaps(frame: { channel.send($0) })
    }
  }

  private var defaultBuffering: UpdateBuffering {
    switch source {
    case .recording(_, nil), .source(nil, _): return .waitsForConsumer(64)
    default: break
    }
    return .newest(1)
  }
}
