import Attitude
import Motion

/// A hub device as the service serves it: one hub claim shared by the
/// service's clients (taken at the first client's claim, released after
/// the last), the clients' claims, the orientation, and the properties as
/// last announced.
///
/// Not thread-safe (not `Sendable`): use it from the loop's thread.
final class ServedDevice {
  let device: HubDevice
  var hubClaim: HubClaim?
  /// By client's unique name.
  var claims: [String: ClientClaim] = [:]
  var orientation = OrientationTracker()
  /// The newest sample's attitude (relative to the device's start), for Recenter.
  var latestAttitude: Attitude?
  /// The property values last announced (or served), by name.
  var announced: [String: BusValue] = [:]
  /// Whether the device was open at the last announcement.
  var announcedOpen = false
  /// When the rate is next announced while open (monotonic seconds).
  var nextRateAnnouncement: Double?

  init(_ device: HubDevice) { self.device = device }

  var path: String { MotionInterface.devicePath(device.number) }
}
