import Attitude
import Motion
import TiltCard

/// The card as what a ``DeviceMotionManager`` feeds: updates run while the
/// card is active, wake-ups are its display frames and idle stop.
extension TiltPipeline: MotionProcessor {
  public var motionManager: MotionManager? { manager }
  public var isActive: Bool { session.state == .active }
  public var isStoppedForIdle: Bool { session.stoppedForIdle }
  public var wakeTime: Double? { session.nextWakeTime }
  public var settleTime: Double? { session.nextFrameTime }
  /// Starts the card when it is stopped (a start while active is no command).
  public func start() throws {
    if session.state == .stopped { try perform(.startUpdates) }
  }
  /// Stops the card when it is active.
  public func stop() throws {
    if session.state == .active { try perform(.stopUpdates) }
  }
  public func recenter() throws { try perform(.recenter) }
  public func endTurn() throws { try sink.flush() }
  public func redraw() throws { try sink.redraw() }
  public func abandon() { try? sink.finish() }
  public func take(_ items: [MotionStep]) throws {
    // By index: each step is borrowed from the batch, not copied out of it.
    for index in items.indices { try take(items[index]) }
  }
}
