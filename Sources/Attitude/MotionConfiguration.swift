/// Which estimator turns samples into attitude (`--fusion`).
public enum FusionMode: String, CaseIterable, Sendable {
  /// Gyroscope and accelerometer fusion when the source has a gyroscope,
  /// else the accelerometer alone.
  case auto
  /// The accelerometer alone (``AccelerometerTiltEstimator``).
  case accel
  /// Gyroscope and accelerometer fusion (``GyroAccelFusion``); samples
  /// without a rotation rate count as not turning.
  case gyro
}

/// What the output attitude is relative to (`--reference`).
public enum ReferenceMode: String, CaseIterable, Sendable {
  /// The first attitude after updates start, re-taken by `recenter()`.
  case start
  /// Absolute: world z up, yaw arbitrary (no magnetometer).
  case none
}

/// How a ``MotionManager`` estimates and smooths attitude.
public struct MotionConfiguration: Sendable {
  public var fusion: FusionMode
  /// Smoothing of the output attitude. The default, a One Euro filter with
  /// a 1 Hz floor and β = 5 Hz per rad/s, keeps the card still at rest
  /// (accelerometer noise is filtered at 1 Hz) and lags little in turns (at
  /// 1 rad/s the cutoff is 6 Hz, ≈ 27 ms), which a fixed low-pass cannot do.
  public var filter: SmoothingFilter
  public var reference: ReferenceMode
  public var fusionParameters: FusionParameters

  /// Whether the gyroscope fusion runs (else the accelerometer-only tilt):
  /// `.gyro` always, `.auto` when the device has a gyroscope.
  public func usesFusion(hasGyroscope: Bool) -> Bool {
    fusion == .gyro || (fusion == .auto && hasGyroscope)
  }

  public static let defaultFilter = SmoothingFilter.oneEuro(
    minCutoff: 1.0, beta: 5.0, derivativeCutoff: 1.0)

  public init(
    fusion: FusionMode = .auto, filter: SmoothingFilter = MotionConfiguration.defaultFilter,
    reference: ReferenceMode = .start, fusionParameters: FusionParameters = .init()
  ) {
    self.fusion = fusion
    self.filter = filter
    self.reference = reference
    self.fusionParameters = fusionParameters
  }
}
