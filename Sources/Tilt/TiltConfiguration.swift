import Attitude
import Motion
import SensorData
import TiltCard

/// Everything the pipeline needs to know beyond its source: the device
/// motion (``DeviceMotionConfiguration``: estimator, filter, axes, stick
/// range, stored bias) and what the card does with it.
public struct TiltConfiguration: Sendable {
  /// Motion without the card: what the sources and the motion layer take.
  public var deviceMotion = DeviceMotionConfiguration()
  /// The card's pose, flip and lifecycle (TiltCard).
  public var card = CardConfiguration()
  /// Display frames per second of the card, in ``CardConfiguration/displayRateRangeHz``.
  public var displayRateHz = CardConfiguration.defaultDisplayRateHz
  /// One display frame per input sample instead of one per display frame.
  public var everySample = false

  /// The estimator, filter and reference (Attitude): ``deviceMotion``'s.
  public var motion: MotionConfiguration {
    get { deviceMotion.motion }
    set { deviceMotion.motion = newValue }
  }
  /// Device-to-card axes: ``deviceMotion``'s ``DeviceMotionConfiguration/mountMatrix``.
  public var mountMatrix: MountMatrix? {
    get { deviceMotion.mountMatrix }
    set { deviceMotion.mountMatrix = newValue }
  }
  /// A joystick's tilt at full deflection, degrees: ``deviceMotion``'s.
  public var stickRangeDegrees: Double {
    get { deviceMotion.stickRangeDegrees }
    set { deviceMotion.stickRangeDegrees = newValue }
  }
  /// Where a live device's gyroscope bias is kept: ``deviceMotion``'s.
  public var gyroBiasStore: GyroBiasStore? {
    get { deviceMotion.gyroBiasStore }
    set { deviceMotion.gyroBiasStore = newValue }
  }

  public init() {}
}

extension Recording {
  /// Opens `path` with the configuration's device motion (``Recording/open(path:configuration:)``).
  @_disfavoredOverload
  public static func open(path: String, configuration: TiltConfiguration) throws
    -> any MotionSource
  {
    try open(path: path, configuration: configuration.deviceMotion)
  }
}

// A caller's `.init()` is a DeviceMotionConfiguration: the same defaults.
extension EvemuMotionSource {
  @_disfavoredOverload
  public init(reader: EvemuReader, configuration: TiltConfiguration) throws {
    try self.init(reader: reader, configuration: configuration.deviceMotion)
  }
}

extension DemoMotionSource {
  @_disfavoredOverload
  public init(configuration: TiltConfiguration) throws {
    try self.init(configuration: configuration.deviceMotion)
  }
}

extension DeviceSetup {
  /// ``profile(for:configuration:device:udevMatrix:isRecording:)`` with the
  /// configuration's device motion.
  @_disfavoredOverload
  public static func profile(
    for info: DeviceInfo, configuration: TiltConfiguration, device: String,
    udevMatrix: MountMatrix? = nil, isRecording: Bool = false
  ) throws(MotionError) -> DeviceProfile {
    try profile(
      for: info, configuration: configuration.deviceMotion, device: device,
      udevMatrix: udevMatrix, isRecording: isRecording)
  }
}

extension GyroCalibrator {
  /// Opens `devicePath` with the configuration's device motion.
  @_disfavoredOverload
  public convenience init(devicePath: String, configuration: TiltConfiguration) throws {
    try self.init(devicePath: devicePath, configuration: configuration.deviceMotion)
  }
}
