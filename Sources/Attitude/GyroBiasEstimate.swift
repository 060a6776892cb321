/// What is known of a gyroscope's bias: the value, how uncertain it is, and
/// whether a rest has measured it.
///
/// The fusion reports it (``GyroAccelFusion/biasEstimate``,
/// ``MotionManager/gyroscopeBiasEstimate``) and can start from a stored one
/// (``GyroAccelFusion/seedBias(_:)``, ``MotionManager/seedGyroscopeBias(_:)``).
public struct GyroBiasEstimate: Hashable, Sendable {
  /// Rad/s, card frame: what the gyroscope reads while the card is still.
  public var bias: Vector3
  /// Standard deviation of each axis of ``bias``, rad/s.
  public var uncertainty: Vector3
  /// True when a rest since the start (or since the seed) measured it.
  public var isConfirmedByRest: Bool

  public init(bias: Vector3, uncertainty: Vector3, isConfirmedByRest: Bool = false) {
    self.bias = bias
    self.uncertainty = uncertainty
    self.isConfirmedByRest = isConfirmedByRest
  }

  /// The same uncertainty on every axis.
  public init(bias: Vector3, uncertainty: Double, isConfirmedByRest: Bool = false) {
    self.init(
      bias: bias, uncertainty: Vector3(uncertainty, uncertainty, uncertainty),
      isConfirmedByRest: isConfirmedByRest)
  }
}
