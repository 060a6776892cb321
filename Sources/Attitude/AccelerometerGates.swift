/// What decides how far each accelerometer reading may correct the
/// inclination: the clip hold (``FusionParameters/accelerometerRange``,
/// ``FusionParameters/clippedHoldTime``) and the fade after it, the usable
/// magnitude that may start the inclination
/// (``FusionParameters/usableAccelerationRange``), and the knock weight
/// (``FusionParameters/shockScale``).
struct AccelerometerGates: Sendable {
  /// ``FusionParameters/accelerometerRange``, g, and its square.
  let clipLimit: Double
  let clipLimit2: Double
  /// ``FusionParameters/clippedHoldTime``, s, and its inverse.
  let clippedHoldTime: Double
  let inverseClippedHoldTime: Double
  let usableMagnitude2: ClosedRange<Double>
  let shockScale2: Double
  /// Whether ``FusionParameters/shockScale`` is finite: only then does a
  /// reading's distance from 1 g matter.
  let measuresDeviation: Bool

  /// The time until which the accelerometer does not correct the
  /// inclination: ``FusionParameters/clippedHoldTime`` after the last
  /// clipped reading, seconds.
  var clippedUntil = -Double.infinity
  /// The end of the fade that follows a clip hold (one hold after it): until
  /// then the low-pass takes the readings' part away from the gravity it
  /// holds in proportion to the time since the hold.
  var clipFadeUntil = -Double.infinity
  /// The readings' recent course, from which a knock jumps: the last
  /// correction block's (weighted) mean, g, almost-inertial frame.
  var recentAcceleration = Vector3.zero
  /// The mean square of that block's readings' jumps, g².
  var recentJump2 = 0.0

  init(_ parameters: FusionParameters) {
    clipLimit = parameters.accelerometerRange
    clipLimit2 = clipLimit * clipLimit
    clippedHoldTime = parameters.clippedHoldTime
    inverseClippedHoldTime = 1 / parameters.clippedHoldTime
    let range = parameters.usableAccelerationRange
    usableMagnitude2 = (range.lowerBound * range.lowerBound)...(range.upperBound * range.upperBound)
    shockScale2 = parameters.shockScale * parameters.shockScale
    measuresDeviation = shockScale2.isFinite
  }

  mutating func reset() {
    recentAcceleration = .zero
    recentJump2 = 0
    clippedUntil = -.infinity
    clipFadeUntil = -.infinity
  }

  /// Whether `acceleration` (squared length `magnitude2`) has an axis at
  /// the range. No axis reaches it while the vector's length is below it:
  /// one comparison for almost every sample.
  @inline(__always)
  func isClipped(_ acceleration: Vector3, magnitude2: Double) -> Bool {
    magnitude2 >= clipLimit2
      && max(abs(acceleration.x), max(abs(acceleration.y), abs(acceleration.z))) >= clipLimit
  }

  /// Holds the accelerometer off for a hold after a clipped reading at
  /// `time`, then fades it in over one more. Returns whether the reading
  /// begins a hold (none was running).
  mutating func holdAfterClip(at time: Double) -> Bool {
    let begins = time > clippedUntil
    clippedUntil = time + clippedHoldTime
    clipFadeUntil = clippedUntil + clippedHoldTime
    return begins
  }

  /// The gyroscope lost part of a turn at `time`: the readings up to it say
  /// nothing of gravity in the frame that follows, and there is nothing to
  /// fade back.
  mutating func holdAfterJump(at time: Double) {
    clippedUntil = max(clippedUntil, time)
    clipFadeUntil = -.infinity
  }

  /// Whether a reading at `time` goes into the low-pass: none during a
  /// hold, and only one of usable magnitude starts it.
  @inline(__always)
  func admits(time: Double, magnitude2: Double, hasInclination: Bool) -> Bool {
    time > clippedUntil && (hasInclination || magnitude2 >= usableMagnitude2.lowerBound)
  }

  /// The weight of `inertial` (almost-inertial frame) in its block, and
  /// its squared jump from the readings' recent course.
  ///
  /// A knock is a spike: a jump from the readings' recent course beyond
  /// their recent jumps. A push follows its course, a shake or a violent
  /// translation jumps all the time. The jump is a vector, so a shake's
  /// push and pull weigh alike and its mean stays zero (the magnitude's
  /// jump is larger on the side that adds to gravity). With
  /// ``FusionParameters/shockScale`` infinite every reading weighs 1 and
  /// the low-pass is linear in the readings.
  @inline(__always)
  func weight(of inertial: Vector3) -> (weight: Double, jump2: Double) {
    guard measuresDeviation else { return (1, 0) }
    let jump2 = (inertial - recentAcceleration).lengthSquared
    let calm = shockScale2 + recentJump2
    return (calm / (calm + jump2), jump2)
  }

  /// The course starts at the inclination's first reading.
  mutating func start(at inertial: Vector3) {
    recentAcceleration = inertial
    recentJump2 = 0
  }

  /// A block ended with mean `mean` and mean square jump `jump2`.
  @inline(__always)
  mutating func follow(mean: Vector3, jump2: Double) {
    recentAcceleration = mean
    recentJump2 = jump2
  }

  /// The part of a block's mean that enters the low-pass at `time`: nil
  /// outside the fade after a clip hold, else its share, from 0 at the
  /// hold's end to 1 at the fade's.
  @inline(__always)
  func fade(at time: Double) -> Double? {
    guard time < clipFadeUntil else { return nil }
    return 1 - (clipFadeUntil - time) * inverseClippedHoldTime
  }
}
