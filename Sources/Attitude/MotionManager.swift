import Foundation

/// Turns motion samples into ``DeviceMotion``, shaped like `CMMotionManager`.
///
/// The manager reads no device and no clock: it is fed samples, either
/// one by one with ``process(_:)`` after
/// ``startDeviceMotionUpdates(handler:)`` (push), or by running a sequence
/// of samples to its end with ``startDeviceMotionUpdates(from:handler:)``
/// (pull; the `Tilt` library's `MotionSource` is the one source of devices
/// and recordings). The same samples
/// always give the same outputs.
///
/// Lifecycle, as in Core Motion: stopping and starting again begins afresh:
/// the orientation is re-estimated from the next sample and, with
/// ``ReferenceMode/start``, the reference is re-taken. What was learned
/// about the sensor (the gyroscope bias) is kept across starts.
/// ``deviceMotion`` keeps the last output after a stop.
///
/// Not thread-safe (not `Sendable`): create, feed and read a manager on one
/// thread or task; the handler runs on the thread that calls ``process(_:)``.
public final class MotionManager {
  public let configuration: MotionConfiguration
  /// Whether the source reports rotation rates.
  public let hasGyroscope: Bool

  /// False only when fusion is forced (``FusionMode/gyro``) on a source
  /// without a gyroscope; the manager then runs the fusion with the
  /// accelerometer alone, which corrects the inclination slowly.
  public var isDeviceMotionAvailable: Bool { configuration.fusion != .gyro || hasGyroscope }
  public private(set) var isDeviceMotionActive = false
  /// Seconds of sample time between handler calls; 0 calls it for every
  /// sample. The one place updates are throttled: the managers built on
  /// this one (Motion's `DeviceMotionManager`, Tilt's card) forward theirs here.
  public var deviceMotionUpdateInterval: Double = 0
  /// The latest output, for callers that poll.
  public private(set) var deviceMotion: DeviceMotion?

  /// True when the gyroscope + accelerometer fusion is in use.
  public var usesFusion: Bool {
    configuration.usesFusion(hasGyroscope: hasGyroscope)
  }

  /// The fusion's current gyroscope bias estimate, rad/s, card frame; `nil`
  /// with the accelerometer-only estimator.
  public var gyroscopeBias: Vector3? { fusion?.bias }

  /// The fusion's bias estimate with its uncertainty and whether a rest has
  /// confirmed it (to store it for the next run); `nil` with the
  /// accelerometer-only estimator.
  public var gyroscopeBiasEstimate: GyroBiasEstimate? { fusion?.biasEstimate }

  /// Starts the fusion from a stored bias estimate (rad/s, card frame), used
  /// from the first sample on; the first rest confirms or replaces it (see
  /// ``GyroAccelFusion/seedBias(_:)``). Call it before or during updates;
  /// without a fusion it does nothing.
  public func seedGyroscopeBias(_ estimate: GyroBiasEstimate) {
    fusion?.seedBias(estimate)
  }

  private var fusion: GyroAccelFusion?
  private var tilt: AccelerometerTiltEstimator?
  private var filter: AnyAttitudeFilter
  private var reference: Attitude?
  /// Pitch and roll of the reference, radians, for the accelerometer alone.
  private var tiltReference: (pitch: Double, roll: Double)?
  /// The roll last shown by the accelerometer-only path, radians.
  private var shownTiltRoll = 0.0
  private var needsReference = false
  private var handler: ((DeviceMotion) -> Void)?
  private var lastHandlerTime: Double?

  public init(configuration: MotionConfiguration = .init(), hasGyroscope: Bool) {
    self.configuration = configuration
    self.hasGyroscope = hasGyroscope
    filter = configuration.filter.makeFilter()
    if configuration.usesFusion(hasGyroscope: hasGyroscope) {
      fusion = GyroAccelFusion(parameters: configuration.fusionParameters)
    } else {
      tilt = AccelerometerTiltEstimator(parameters: configuration.fusionParameters)
    }
  }

  /// Starts updates in push mode: feed samples with ``process(_:)``;
  /// `handler` gets each output, or one per ``deviceMotionUpdateInterval``.
  public func startDeviceMotionUpdates(handler: @escaping (DeviceMotion) -> Void) {
    fusion?.reset()
    tilt?.reset()
    filter.reset()
    reference = nil
    tiltReference = nil
    shownTiltRoll = 0
    needsReference = configuration.reference == .start
    lastHandlerTime = nil
    self.handler = handler
    isDeviceMotionActive = true
  }

  /// Starts updates in pull mode and runs `samples` until they end or
  /// `handler` calls ``stopDeviceMotionUpdates()``; returns how many were
  /// taken. Updates are stopped when this returns.
  @discardableResult
  public func startDeviceMotionUpdates(
    from samples: some Sequence<MotionSample>, handler: @escaping (DeviceMotion) -> Void
  ) -> Int {
    startDeviceMotionUpdates(handler: handler)
    defer { stopDeviceMotionUpdates() }
    var taken = 0
    for sample in samples {
      guard isDeviceMotionActive else { break }
      process(sample)
      taken += 1
    }
    return taken
  }

  /// Stops updates: ``process(_:)`` ignores samples until the next start.
  public func stopDeviceMotionUpdates() {
    isDeviceMotionActive = false
    handler = nil
  }

  /// Makes the next output the reference: it reads as the identity, and
  /// later ones are relative to it. Only with ``ReferenceMode/start``; the
  /// absolute attitude of ``ReferenceMode/none`` has no reference to move.
  public func recenter() {
    if configuration.reference == .start { needsReference = true }
  }

  /// One step: estimates, smooths, makes relative, stores in
  /// ``deviceMotion`` and calls the handler when it is due.
  ///
  /// Returns `nil` while stopped, and for a sample with a NaN or infinite
  /// field, which leaves every state untouched.
  @discardableResult
  public func process(_ sample: MotionSample) -> DeviceMotion? {
    guard isDeviceMotionActive else { return nil }
    let estimate: AttitudeEstimate?
    if fusion != nil {
      estimate = fusion!.update(sample)
    } else {
      estimate = tilt!.update(sample)
    }
    guard let estimate else { return nil }

    let smoothed = Attitude(
      quaternion: filter.update(estimate.orientation, time: sample.time))
    var attitude = smoothed
    if fusion != nil {
      if needsReference {
        reference = smoothed
        needsReference = false
      }
      if let reference { attitude.multiply(byInverseOf: reference) }
    } else {
      attitude = tiltOnlyAttitude(smoothed)
    }

    let motion = DeviceMotion(
      timestamp: sample.time,
      attitude: attitude,
      gravity: -smoothed.quaternion.upVector,
      userAcceleration: sample.acceleration + estimate.gravity,
      rotationRate: estimate.rotationRate)
    deviceMotion = motion
    if let handler, isDue(sample.time) {
      lastHandlerTime = sample.time
      handler(motion)
    }
    return motion
  }

  /// The attitude of a card seen by its accelerometer alone, which knows
  /// nothing of yaw: yaw 0, and the pitch and roll that the tilt gives
  /// (``ReferenceMode/none``), or their changes since the reference
  /// (``ReferenceMode/start``): the angles the card would show had it
  /// started level and only tilted, whatever tilt it started from. Relative
  /// rotations (`reference⁻¹·attitude`) would turn a start tilted in pitch
  /// and a later roll into a made-up yaw and a wrong roll.
  ///
  /// Roll is what gravity shows of a turn about the card's y axis, and it
  /// fades out as that axis nears the vertical (an upright tablet, a laptop
  /// lid, a pad stood on its end): there `atan2(−fx, fz)` divides noise by
  /// noise. So the shown roll follows the reading fully below
  /// ``rollClearPitch`` and not at all above ``rollBlindPitch``, and is held
  /// in between in proportion, instead of jumping by up to 180°.
  private func tiltOnlyAttitude(_ smoothed: Attitude) -> Attitude {
    let m = smoothed.rotationMatrix
    let levelness = (m.m31 * m.m31 + m.m33 * m.m33).squareRoot()
    var pitch = atan2(m.m32, levelness)
    let reading = atan2(-m.m31, m.m33)
    let weight = min(
      1,
      max(
        0,
        (levelness - cos(Self.rollBlindPitch))
          / (cos(Self.rollClearPitch) - cos(Self.rollBlindPitch))))
    if weight > 0 {
      shownTiltRoll += weight * remainder(reading - shownTiltRoll, 2 * .pi)
    }
    var roll = shownTiltRoll
    if needsReference {
      tiltReference = (pitch, roll)
      needsReference = false
    }
    if let tiltReference {
      pitch -= tiltReference.pitch
      roll = remainder(roll - tiltReference.roll, 2 * .pi)
    }
    return Attitude(pitch: pitch, roll: roll, yaw: 0)
  }

  /// Below this pitch (either way) the accelerometer's roll is shown as read.
  static let rollClearPitch = 80.0 * .pi / 180
  /// Above this pitch (either way) the accelerometer cannot see roll: it is held.
  static let rollBlindPitch = 87.0 * .pi / 180

  private func isDue(_ time: Double) -> Bool {
    guard deviceMotionUpdateInterval > 0, let last = lastHandlerTime else { return true }
    // A time before the last call is a clock that restarted: call at once.
    return time - last >= deviceMotionUpdateInterval || time < last
  }
}
