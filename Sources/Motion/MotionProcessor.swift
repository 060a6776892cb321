import Attitude

/// What a ``DeviceMotionManager`` feeds with its device's steps: Attitude's
/// `MotionManager` alone (``MotionUpdates``), or a consumer built on it (a
/// card). It says whether updates run, when it wants to be woken without
/// input (a display frame), and takes commands between turns.
public protocol MotionProcessor: AnyObject {
  /// The fusion the steps go through, if any; the device's stored bias seeds it.
  var motionManager: MotionManager? { get }
  /// The app's handler: called by ``motionManager``'s update handler, so
  /// with one motion per its `deviceMotionUpdateInterval` (the one place
  /// updates are throttled). ``DeviceMotionManager`` sets it.
  var motionHandler: ((DeviceMotion) -> Void)? { get set }
  /// Whether updates run.
  var isActive: Bool { get }
  /// Stopped by an idle stop, which does not hold a recording.
  var isStoppedForIdle: Bool { get }
  /// The loop should end at its next turn (a quit key, a server's request).
  var endRequested: Bool { get }
  /// Source time of the next wake-up without input (a frame, an idle stop); `nil` for none.
  var wakeTime: Double? { get }
  /// Source time of the next thing to show before it settles (the rest of
  /// an animation at the end of a recording); `nil` at rest.
  var settleTime: Double? { get }
  /// Starts updates.
  func start() throws
  /// Stops updates.
  func stop() throws
  /// Makes the next attitude the reference.
  func recenter() throws
  /// Takes one step of the device.
  func take(_ item: MotionStep) throws
  /// Takes the steps of one read, oldest first (one call a batch: a replay
  /// at full speed hands over hundreds at a time).
  func take(_ items: [MotionStep]) throws
  /// Serves the wake-ups due up to source time `t`, with no new input.
  func advance(to t: Double) throws
  /// Ends every turn of the loop (makes output visible).
  func endTurn() throws
  /// Draws again (the terminal was resized).
  func redraw() throws
  /// The end of a run: the rest of the output.
  func finish() throws
  /// The end of a run that failed: what can still be written.
  func abandon()
}

extension MotionProcessor {
  public var motionManager: MotionManager? { nil }
  /// No handler: a processor without a fusion makes no motion.
  public var motionHandler: ((DeviceMotion) -> Void)? {
    get { nil }
    set {}
  }
  public func take(_ items: [MotionStep]) throws {
    for item in items { try take(item) }
  }
  public var isStoppedForIdle: Bool { false }
  public var endRequested: Bool { false }
  public var wakeTime: Double? { nil }
  public var settleTime: Double? { nil }
  public func advance(to t: Double) throws {}
  public func endTurn() throws {}
  public func redraw() throws {}
  public func finish() throws {}
  public func abandon() {}
}

/// Attitude's `MotionManager` as a processor: each motion to a handler, or
/// one per update interval; buttons reach nothing.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
public final class MotionUpdates: MotionProcessor {
  /// The fusion.
  public let manager: MotionManager
  public var motionManager: MotionManager? { manager }
  /// Called with each motion (or one per the manager's update interval).
  public var handler: ((DeviceMotion) -> Void)?
  public var motionHandler: ((DeviceMotion) -> Void)? {
    get { handler }
    set { handler = newValue }
  }

  /// A motion manager for `device`: `configuration` with the device's ranges.
  public init(configuration: MotionConfiguration, device: any MotionDevice) {
    manager = MotionManager(
      configuration: configuration.fitted(to: device),
      hasGyroscope: device.capabilities.hasGyroscope)
  }

  public var isActive: Bool { manager.isDeviceMotionActive }

  public func start() throws {
    if !manager.isDeviceMotionActive {
      manager.startDeviceMotionUpdates { [unowned self] motion in handler?(motion) }
    }
  }

  public func stop() throws { manager.stopDeviceMotionUpdates() }
  public func recenter() throws { manager.recenter() }

  public func take(_ item: MotionStep) throws {
    if let sample = item.motion { manager.process(sample) }
  }
}

extension MotionConfiguration {
  /// This configuration with the fusion told `device`'s ranges (readings at
  /// them are clipped).
  public func fitted(to device: any MotionDevice) -> MotionConfiguration {
    let capabilities = device.capabilities
    return fitted(
      accelerometerRange: capabilities.accelerometerRange,
      gyroscopeRange: capabilities.gyroscopeRange)
  }

  /// This configuration with the fusion told the source's ranges.
  public func fitted(accelerometerRange: Double?, gyroscopeRange: Double?) -> MotionConfiguration {
    var motion = self
    if let accelerometerRange { motion.fusionParameters.accelerometerRange = accelerometerRange }
    if let gyroscopeRange { motion.fusionParameters.gyroscopeRange = gyroscopeRange }
    return motion
  }
}
