import Attitude
import Motion

/// One slot's device and its motion manager: opened while a subscription
/// covers it, closed otherwise; each motion turned into a DSU reading with a
/// timestamp that only goes forward.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
final class DSUSlot {
  let index: Int
  let device: DSUDevice
  private let makeManager: () -> DeviceMotionManager
  private(set) var manager: DeviceMotionManager?
  /// Called with a manager when it is made (to hook its notes).
  var onManager: (DeviceMotionManager) -> Void = { _ in }
  /// Whether updates run (the device's node open).
  private(set) var isOpen = false
  /// A start or a read failed; not tried again until a new client subscribes.
  var openFailed = false
  /// Datagrams of this slot sent, all clients.
  var datagramsSent = 0
  /// The stored gyroscope bias the fusion started from, deg/s, card frame.
  var storedBias: Vector3?
  private var clock = DSUTimestamps()
  private var rate = RateWindow()

  init(index: Int, device: DSUDevice, makeManager: @escaping () -> DeviceMotionManager) {
    self.index = index
    self.device = device
    self.makeManager = makeManager
  }

  /// Starts updates (opening the device) with `handler` for each reading.
  func open(now: Double, handler: @escaping (DSUMotion) -> Void) throws {
    let manager: DeviceMotionManager
    if let existing = self.manager {
      manager = existing
    } else {
      manager = makeManager()
      onManager(manager)
      self.manager = manager
    }
    clock.restart()
    try manager.startDeviceMotionUpdates { [unowned self] motion in
      rate.count(at: MonotonicInstant.now.secondsValue)
      handler(reading(of: motion))
    }
    isOpen = true
  }

  /// Stops updates: the device's node is closed.
  func close() {
    guard isOpen else { return }
    isOpen = false
    try? manager?.stopDeviceMotionUpdates()
  }

  /// Closes the device for good and stores the bias a rest confirmed.
  func finish() {
    close()
    try? manager?.finishUpdates()
  }

  /// Forgets the manager (its device went away).
  func drop() {
    close()
    manager = nil
  }

  /// Samples a second over the last second or so; 0 while closed.
  func samplesPerSecond(now: Double) -> Double { isOpen ? rate.rate(now: now) : 0 }

  /// The DSU reading of `motion`: the accelerometer reading in g (gravity
  /// and user acceleration give it back: a = user − gravity, with gravity
  /// toward the earth), the bias-removed rotation rate.
  private func reading(of motion: DeviceMotion) -> DSUMotion {
    DSUMotion(
      timestampMicroseconds: clock.microseconds(for: motion.timestamp),
      acceleration: motion.userAcceleration - motion.gravity, rotationRate: motion.rotationRate)
  }
}

/// A slot's motion timestamps, µs: the source's time plus an offset fixed at
/// the first sample (the monotonic clock then, so that two slots' clocks are
/// near each other), moved on when a reopened source starts its time again
/// so that the timestamp never goes back.
struct DSUTimestamps {
  private var offset: Double?
  private var last: UInt64?
  private var restarted = false

  /// The next sample starts the source anew.
  mutating func restart() { restarted = true }

  mutating func microseconds(for time: Double) -> UInt64 {
    let micros = (time * 1e6).rounded()
    if offset == nil { offset = Double(MonotonicInstant.now.nanoseconds / 1000) - micros }
    var value = UInt64(max(0, micros + offset!))
    if restarted, let last, value <= last {
      offset! += Double(last + 1 - value)
      value = last + 1
    }
    restarted = false
    last = value
    return value
  }
}

/// Events counted over a sliding second, for a rate shown to a person.
struct RateWindow {
  private var times: [Double] = []

  mutating func count(at now: Double) {
    times.append(now)
    if times.count > 4096 || (times.first.map { now - $0 > 2 } ?? false) {
      times.removeAll { now - $0 > 1 }
    }
  }

  func rate(now: Double) -> Double { Double(times.filter { now - $0 <= 1 }.count) }
}
