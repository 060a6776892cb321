import Attitude
import Motion

extension DSUServer {
  /// Something to tell the person running the server.
  public enum Event: Sendable {
    /// A device took the slot (found at start, plugged in, or back).
    case slotConnected(slot: Int, DSUDevice)
    /// The slot's device went away; the slot is kept for its return.
    case slotDisconnected(slot: Int, DSUDevice)
    /// A client's first pad-data request; `client` is `HOST:PORT`.
    case subscribed(client: String)
    /// A client's subscriptions all lapsed.
    case lapsed(client: String)
    /// A subscription covers the slot: its device is open.
    case opened(slot: Int)
    /// No subscription covers the slot any more: its device is closed.
    case closed(slot: Int)
    /// A device could not be opened or read (the error says why).
    case problem(slot: Int, DSUDevice, any Error)
    /// A note of a slot's motion manager.
    case note(slot: Int, MotionNote)
    /// A device was found but all four slots are taken.
    case noFreeSlot(DSUDevice)
  }

  /// What one slot shows in the status.
  public struct SlotStatus: Sendable {
    public var slot: Int
    public var device: DSUDevice
    public var isOpen: Bool
    public var samplesPerSecond: Double
    public var clients: Int
    public var datagramsSent: Int
    /// The gyroscope bias the fusion started from (deg/s, card frame), when one was stored.
    public var storedBiasDegreesPerSecond: Vector3?
  }
}
