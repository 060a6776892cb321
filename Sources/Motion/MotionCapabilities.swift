import SensorData

/// What a device or a source can report: whether its samples carry a
/// rotation rate, the key codes that choose a card's flip button, and the
/// ranges its axes read. A ``MotionDevice`` and a ``MotionSource`` say it the
/// same way (``MotionDevice/capabilities``, ``MotionSource/capabilities``).
public struct MotionCapabilities: Hashable, Sendable {
  /// Whether its samples carry a rotation rate.
  public var hasGyroscope: Bool
  /// The key codes (`EV_KEY`) of the device, which choose a card's flip
  /// button (`Buttons.primary(among:)`); `nil` when not known.
  public var keyCodes: Set<UInt16>?
  /// The largest magnitude, in g, that an accelerometer axis reads
  /// (`FusionParameters.accelerometerRange`); `nil` when not known.
  public var accelerometerRange: Double?
  /// The largest rate, in rad/s, that a gyroscope axis reads
  /// (`FusionParameters.gyroscopeRange`); `nil` when not known.
  public var gyroscopeRange: Double?

  public init(
    hasGyroscope: Bool, keyCodes: Set<UInt16>? = nil, accelerometerRange: Double? = nil,
    gyroscopeRange: Double? = nil
  ) {
    self.hasGyroscope = hasGyroscope
    self.keyCodes = keyCodes
    self.accelerometerRange = accelerometerRange
    self.gyroscopeRange = gyroscopeRange
  }
}

extension DeviceProfile {
  /// What a device of this profile reports: its gyroscope, its buttons and
  /// the ranges of its axes.
  public var capabilities: MotionCapabilities {
    MotionCapabilities(
      hasGyroscope: gyroAxes != nil, keyCodes: buttons, accelerometerRange: accelerometerRange,
      gyroscopeRange: gyroscopeRange)
  }
}
