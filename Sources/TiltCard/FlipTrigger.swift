import Attitude

/// What flips the card, besides an explicit flip (the space key).
public enum FlipTrigger: String, Hashable, Sendable, CaseIterable {
  /// A press of one of the device's flip buttons (``CardSession/flipButtons``:
  /// the device layer chooses them, its primary buttons).
  case button
  /// The device turned face down relative to the reference: see ``TurnoverDetector``.
  case turnover
  /// Only an explicit flip.
  case none
}

/// Decides, from the attitude, whether the device is face down, with hysteresis.
///
/// The card's z axis in reference coordinates is `q·(0,0,1)`; its z component
/// falling below `downThreshold` turns the card over, rising above `upThreshold`
/// turns it back. Between the two the state holds, so noise near edge-on never
/// makes the card flutter.
public struct TurnoverDetector: Hashable, Sendable {
  public var downThreshold: Double = -0.5
  public var upThreshold: Double = 0.5
  /// Whether the device is currently taken as face down.
  public private(set) var isFaceDown = false

  public init() {}

  /// Feeds one attitude; returns the new face-down state when it changes.
  public mutating func update(_ quaternion: Quaternion) -> Bool? {
    let z = quaternion.rotate(Vector3(0, 0, 1)).z
    if !isFaceDown, z < downThreshold {
      isFaceDown = true
      return true
    }
    if isFaceDown, z > upThreshold {
      isFaceDown = false
      return false
    }
    return nil
  }
}
