import Attitude
import Motion

/// One slot's hub device: claimed while a subscription covers it, released
/// otherwise; each motion turned into a DSU reading.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
final class DSUSlot {
  let index: Int
  let device: DSUDevice
  let hubDevice: HubDevice
  private var claim: HubClaim?
  /// A claim or a read failed; not tried again until a new client subscribes.
  var openFailed = false
  /// Datagrams of this slot sent, all clients.
  var datagramsSent = 0

  init(index: Int, hubDevice: HubDevice) {
    self.index = index
    self.hubDevice = hubDevice
    device = DSUDevice(hubDevice.description)
  }

  /// Whether this slot holds a claim on its device (its node open, unless
  /// reading it failed or it went away since).
  var isOpen: Bool { claim != nil }

  /// Claims the device (opening it if no other consumer has) with `handler`
  /// for each reading.
  func open(handler: @escaping (DSUMotion) -> Void) throws {
    claim = try hubDevice.claim { motion in handler(Self.reading(of: motion)) }
  }

  /// Releases the device: its node is closed unless another consumer holds it.
  func close() {
    claim?.release()
    claim = nil
  }

  /// The stored gyroscope bias the fusion started from, deg/s, card frame.
  var storedBias: Vector3? { hubDevice.storedBiasDegreesPerSecond }

  /// Samples a second over the last second or so; 0 while closed.
  func samplesPerSecond(now: Double) -> Double {
    isOpen ? hubDevice.samplesPerSecond(now: now) : 0
  }

  /// The DSU reading of `update`: the accelerometer reading in g (gravity
  /// and user acceleration give it back: a = user − gravity, with gravity
  /// toward the earth), the bias-removed rotation rate.
  static func reading(of update: HubMotion) -> DSUMotion {
    DSUMotion(
      timestampMicroseconds: update.timestampMicroseconds,
      acceleration: update.motion.userAcceleration - update.motion.gravity,
      rotationRate: update.motion.rotationRate)
  }
}
