import Attitude
import SensorData
import SystemCalls

/// One motion device of a ``DeviceHub``: open while some consumer holds a
/// claim on it (a DSU subscription, a D-Bus client, an app), closed when the
/// last claim ends; one motion manager, so one calibration, for every claim.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
public final class HubDevice {
  /// How far the device's gyroscope bias is known.
  public enum Calibration: String, Sendable {
    /// Nothing stored, no rest seen yet (or no gyroscope).
    case none
    /// Started from the bias stored for it (`calibrate`, or an earlier run's rest).
    case stored
    /// A rest since it opened measured it.
    case learned
  }

  /// Its place in the hub, from 0: a device that comes back (same
  /// ``identity``) gets its number back.
  public let number: Int
  /// What it is and what is opened.
  public let description: HubDeviceDescription
  /// Whether it is plugged in (false once it went away: a returning device
  /// is a new ``HubDevice`` with the same ``number``).
  public internal(set) var isPresent = true
  /// Whether its node is open (some claim holds it).
  public private(set) var isOpen = false
  /// The motion manager, made at the first claim.
  public private(set) var manager: DeviceMotionManager?

  public var identity: String { description.identity }
  public var path: String { description.path }
  public var name: String { description.name }
  public var kind: DeviceKind { description.kind }
  public var hasGyroscope: Bool { description.hasGyroscope }
  /// An evdev device's description (bus, `uniq`, `phys`); `nil` for IIO and recordings.
  public var info: DeviceInfo? { description.info }

  /// The claims held now, by every consumer.
  public var claimCount: Int { claims.count }

  private let makeManager: () -> DeviceMotionManager
  private let onEvent: (DeviceHub.Event) -> Void
  private var claims: [HubClaim] = []
  private var watchers: [(HubMotion) -> Void] = []
  private var clock = HubTimestamps()
  private var rate = RateWindow()
  private var storedBias: Vector3?
  private var shownCalibration = Calibration.none

  init(
    number: Int, description: HubDeviceDescription,
    makeManager: @escaping () -> DeviceMotionManager,
    onEvent: @escaping (DeviceHub.Event) -> Void
  ) {
    self.number = number
    self.description = description
    self.makeManager = makeManager
    self.onEvent = onEvent
  }

  // MARK: Claims

  /// Claims the device's motion: `handler` gets each sample's motion from
  /// now on. The first claim opens the device; when opening fails, it
  /// throws what opening threw and no claim is taken.
  public func claim(_ handler: @escaping (HubMotion) -> Void) throws -> HubClaim {
    let claim = HubClaim(device: self, handler: handler)
    claims.append(claim)
    if !isOpen {
      do {
        try open()
      } catch {
        claims.removeLast()
        throw error
      }
    }
    onEvent(.stateChanged(self))
    return claim
  }

  /// Calls `handler` with each sample's motion while the device is open,
  /// whoever holds it, for as long as the device is there; it holds
  /// nothing open by itself (a consumer's view of what others claimed).
  public func watch(_ handler: @escaping (HubMotion) -> Void) {
    watchers.append(handler)
  }

  func release(_ claim: HubClaim) {
    guard let index = claims.firstIndex(where: { $0 === claim }) else { return }
    claims.remove(at: index)
    if claims.isEmpty { close() }
    onEvent(.stateChanged(self))
  }

  // MARK: What it shows

  /// Samples a second over the last second or so; 0 while closed.
  public func samplesPerSecond(now: Double) -> Double { isOpen ? rate.rate(now: now) : 0 }

  /// The gyroscope bias being removed, deg/s, card axes; `nil` before the
  /// device first opened or without a gyroscope.
  public var gyroscopeBiasDegreesPerSecond: Vector3? {
    manager?.processor?.motionManager?.gyroscopeBias.map { $0 * (180 / .pi) }
  }

  /// How far the bias is known: learned at a rest, stored, or not at all.
  public var calibration: Calibration {
    guard let estimate = manager?.processor?.motionManager?.gyroscopeBiasEstimate else {
      return .none
    }
    if estimate.isConfirmedByRest { return .learned }
    return storedBias != nil ? .stored : .none
  }

  /// The stored gyroscope bias the fusion started from (deg/s, card frame), if one was.
  public var storedBiasDegreesPerSecond: Vector3? { storedBias }

  // MARK: Opening and closing

  private func open() throws {
    let manager = self.manager ?? makeManager()
    if self.manager == nil {
      self.manager = manager
      manager.onNote = { [unowned self] note in
        if case .startsFromStoredGyroscopeBias(let stored) = note {
          storedBias = stored.biasDegreesPerSecond
        }
        onEvent(.note(self, note))
      }
    }
    clock.restart()
    try manager.startDeviceMotionUpdates { [unowned self] motion in deliver(motion) }
    isOpen = true
  }

  /// Stops updates: the node is closed. The claims stay (a device that
  /// failed is opened again by the next claim).
  func close() {
    guard isOpen else { return }
    isOpen = false
    rate.reset()
    try? manager?.stopDeviceMotionUpdates()
  }

  /// Closes for good and keeps the bias a rest confirmed; the claims end.
  func finish() {
    close()
    let ended = claims
    claims.removeAll()
    watchers.removeAll()
    for claim in ended { claim.drop() }
    try? manager?.finishUpdates()
  }

  /// Reading failed (still there, but unreadable): closed until the next claim.
  func fail(_ error: any Error) {
    close()
    onEvent(.problem(self, error))
    onEvent(.stateChanged(self))
  }

  /// Reads what is ready; throws what the manager throws
  /// (``MotionError/deviceGone(path:)`` when the device went away).
  func service(ready: Set<Int32>) throws {
    guard isOpen, let manager else { return }
    let mine = ready.intersection(manager.pollDescriptors)
    let due = manager.deadline.map { $0 <= MonotonicInstant.now } ?? false
    guard !mine.isEmpty || due else { return }
    try manager.service(ready: mine)
    let calibration = calibration
    if calibration != shownCalibration {
      shownCalibration = calibration
      onEvent(.stateChanged(self))
    }
  }

  private func deliver(_ motion: DeviceMotion) {
    rate.count(at: LoopClock.now())
    let update = HubMotion(
      motion: motion, timestampMicroseconds: clock.microseconds(for: motion.timestamp))
    for watcher in watchers { watcher(update) }
    for claim in claims { claim.deliver(update) }
  }
}

/// One sample's motion as a hub device gives it to its claims.
public struct HubMotion: Sendable {
  /// Attitude's motion: attitude (relative to the device's start), gravity
  /// (unit, toward the earth, card axes), user acceleration (g), rotation
  /// rate (rad/s, the bias removed).
  public var motion: DeviceMotion
  /// µs on the device's clock (contract §7's): never goes back, also across
  /// a close and reopen.
  public var timestampMicroseconds: UInt64
}

/// A consumer's hold on a ``HubDevice``: motion comes to its handler until
/// ``release()``.
public final class HubClaim {
  public let device: HubDevice
  private var handler: ((HubMotion) -> Void)?

  init(device: HubDevice, handler: @escaping (HubMotion) -> Void) {
    self.device = device
    self.handler = handler
  }

  /// Whether it still holds the device.
  public var isHeld: Bool { handler != nil }

  /// Ends the claim; the device closes when its last claim ends. Safe to call twice.
  public func release() {
    guard handler != nil else { return }
    handler = nil
    device.release(self)
  }

  func deliver(_ motion: HubMotion) { handler?(motion) }

  /// The device went away: the claim ends without a release.
  func drop() { handler = nil }
}
