import Attitude

/// The card's tilt, in degrees: how the attitude turns the card on screen.
///
/// `rotationX = gain·pitch` and `rotationY = gain·roll` (pitch and roll in
/// radians), each clamped to ±`maxTilt` (contract §4.2); both zero with reduce motion.
/// How these turn the drawn card is fixed in ``CardGeometry``.
public struct CardPose: Hashable, Sendable {
  /// Card rotation about its x axis (the pitch axis), degrees.
  public var rotationX: Double
  /// Card rotation about its y axis (the roll axis), degrees.
  public var rotationY: Double

  public init(rotationX: Double, rotationY: Double) {
    self.rotationX = rotationX
    self.rotationY = rotationY
  }

  public static let flat = CardPose(rotationX: 0, rotationY: 0)

  /// The pose for `attitude` under `configuration`. A non-finite angle counts as 0.
  public init(attitude: Attitude, configuration: CardConfiguration) {
    guard !configuration.reduceMotion else {
      self = .flat
      return
    }
    func card(_ radians: Double) -> Double {
      let degrees = configuration.gain * radians
      guard degrees.isFinite else { return 0 }
      return min(max(degrees, -configuration.maxTilt), configuration.maxTilt)
    }
    self.init(rotationX: card(attitude.pitch), rotationY: card(attitude.roll))
  }

  /// The larger of the two rotation differences, degrees.
  public func distance(to other: CardPose) -> Double {
    max(abs(rotationX - other.rotationX), abs(rotationY - other.rotationY))
  }
}
