/// Smooths a stream of orientations.
///
/// Filters turn rotations properly: they move the previous output toward
/// the new orientation along the great arc (slerp) by a fraction `α` of the
/// way, instead of averaging Euler angles, which would break at ±180° yaw
/// and near ±90° pitch. Time comes from the caller, never from a clock.
public protocol AttitudeFilter {
  /// The smoothed orientation after one more input at `time` seconds.
  mutating func update(_ orientation: Quaternion, time: Double) -> Quaternion
  /// Forgets the past: the next input passes through unchanged.
  mutating func reset()
}

/// The smoothing applied to the output attitude (`--filter`).
public enum SmoothingFilter: Hashable, Sendable {
  /// The estimator's attitude unchanged.
  case none
  /// A first-order low-pass with time constant `tau` seconds
  /// (``classicLowPassTau``: the tilt card's `x += (new − x)·0.15` at 60 Hz).
  case lowpass(tau: Double)

  /// The low-pass time constant of the classic tilt card, seconds: its
  /// `x += (new − x)·0.15` at 60 Hz is τ ≈ 0.103 s; the default of a low-pass.
  public static let classicLowPassTau = 0.103
  /// The One Euro filter (Casiez, Roussel, Vogel, CHI 2012): cutoffs in Hz,
  /// `beta` in Hz per rad/s of angular speed.
  case oneEuro(minCutoff: Double, beta: Double, derivativeCutoff: Double)

  /// A filter in its initial state.
  public func makeFilter() -> AnyAttitudeFilter {
    switch self {
    case .none: return .none
    case .lowpass(let tau): return .lowpass(LowPassFilter(timeConstant: tau))
    case .oneEuro(let minCutoff, let beta, let derivativeCutoff):
      return .oneEuro(
        OneEuroFilter(minCutoff: minCutoff, beta: beta, derivativeCutoff: derivativeCutoff))
    }
  }
}

/// One of the filters, stored without an existential box (no allocation).
public enum AnyAttitudeFilter: AttitudeFilter, Sendable {
  case none
  case lowpass(LowPassFilter)
  case oneEuro(OneEuroFilter)

  public mutating func update(_ orientation: Quaternion, time: Double) -> Quaternion {
    switch self {
    case .none:
      return orientation
    case .lowpass(var filter):
      let q = filter.update(orientation, time: time)
      self = .lowpass(filter)
      return q
    case .oneEuro(var filter):
      let q = filter.update(orientation, time: time)
      self = .oneEuro(filter)
      return q
    }
  }

  public mutating func reset() {
    switch self {
    case .none: break
    case .lowpass(var filter):
      filter.reset()
      self = .lowpass(filter)
    case .oneEuro(var filter):
      filter.reset()
      self = .oneEuro(filter)
    }
  }
}
