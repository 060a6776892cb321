/// The rate of a turn past the gyroscope's range, continued from the axes
/// that still read it.
///
/// An axis turning faster than the range reads the range, and the part
/// beyond it is lost to the integration. A fast turn (a flick) keeps its
/// axis for the fraction of a second that it lasts, so its rate changes
/// along one direction: the direction in which the readings changed just
/// before the cut (the difference of the last two, which leaves out the
/// slow turn of the hand the flick rides on). Through the cut, the axes
/// below the range say how far along that direction the rate has moved
/// since, and the saturated axes are continued by as much.
struct SaturatedTurn: Sendable {
  /// The range, rad/s.
  let limit: Double
  /// The last two readings below the range (raw rate, rad/s, card frame).
  var previousTime = -Double.infinity
  var previousRate = Vector3.zero
  var earlierTime = -Double.infinity
  var earlierRate = Vector3.zero
  /// Within a cut: the reading before it and the unit direction of change.
  var inCut = false
  var direction: Vector3?
  /// Whether the last saturated reading could not be continued: its lost
  /// part is unknown.
  var lostPartUnknown = false

  /// The longest a reading may be from the one before it, s, for the two
  /// to give a direction (``FusionParameters/saturationDirectionStep``).
  let longestStep: Double
  /// The least square length of the direction on the axes below the range
  /// for them to say how far the turn went
  /// (``FusionParameters/saturationVisibleShare``²).
  let leastVisible2: Double

  init(_ parameters: FusionParameters) {
    limit = parameters.gyroscopeRange
    longestStep = parameters.saturationDirectionStep
    leastVisible2 = parameters.saturationVisibleShare * parameters.saturationVisibleShare
  }

  /// Takes a raw reading near the range (every reading in and around a
  /// cut), returns it with its saturated axes continued. Out of line: the
  /// common sample only compares its rate with the range.
  @inline(never)
  mutating func continued(_ rate: Vector3, time: Double) -> Vector3 {
    let saturatedX = abs(rate.x) >= limit
    let saturatedY = abs(rate.y) >= limit
    let saturatedZ = abs(rate.z) >= limit
    guard saturatedX || saturatedY || saturatedZ else {
      inCut = false
      earlierTime = previousTime
      earlierRate = previousRate
      previousTime = time
      previousRate = rate
      return rate
    }
    if !inCut {
      inCut = true
      let consecutive =
        time - previousTime <= longestStep && previousTime - earlierTime <= longestStep
      direction = consecutive ? (previousRate - earlierRate).normalized : nil
    }
    lostPartUnknown = true
    guard let u = direction else { return rate }
    // The change along u since the cut, from the axes below the range
    // (least squares); none, or too little of u on them, says nothing.
    let change = rate - previousRate
    let weightX = saturatedX ? 0.0 : u.x
    let weightY = saturatedY ? 0.0 : u.y
    let weightZ = saturatedZ ? 0.0 : u.z
    let seen = weightX * weightX + weightY * weightY + weightZ * weightZ
    guard seen > leastVisible2 else { return rate }
    lostPartUnknown = false
    let along = (weightX * change.x + weightY * change.y + weightZ * change.z) / seen
    let estimate = previousRate + u * along
    // A saturated axis is at least the range, in its sign.
    func axis(_ read: Double, _ estimated: Double, _ saturated: Bool) -> Double {
      guard saturated, estimated * read > 0, abs(estimated) > abs(read) else { return read }
      return estimated
    }
    return Vector3(
      axis(rate.x, estimate.x, saturatedX), axis(rate.y, estimate.y, saturatedY),
      axis(rate.z, estimate.z, saturatedZ))
  }
}

/// Which rates go through ``SaturatedTurn``: no bias-corrected rate shorter
/// than the gyroscope's range less the largest bias can have an axis at the
/// range, so only a rate beyond ``FusionParameters/saturationOnset`` of
/// that is near it.
struct SaturationGate: Sendable {
  /// ``FusionParameters/gyroscopeRange``, rad/s.
  let limit: Double
  let maximumBias: Double
  let onset: Double
  /// The square of ``limit`` less the largest bias's length (a seeded
  /// ``BiasObserver/centre`` and what is learnt about it).
  var limit2 = 0.0
  /// The square of ``onset`` of ``limit2``'s rate: a rate above it is near
  /// the range.
  var near2 = 0.0

  init(_ parameters: FusionParameters, centre: Vector3) {
    limit = parameters.gyroscopeRange
    maximumBias = parameters.maximumBias
    onset = parameters.saturationOnset
    update(centre: centre)
  }

  /// The bias is learned about `centre` now.
  mutating func update(centre: Vector3) {
    let largestBias = maximumBias * 3.0.squareRoot() + centre.length
    let gate = max(0, limit - largestBias)
    limit2 = gate * gate
    near2 = limit2 * onset * onset
  }

  /// Whether an axis of the raw `gyro` is at the range.
  @inline(__always)
  func isSaturated(_ gyro: Vector3) -> Bool {
    max(abs(gyro.x), max(abs(gyro.y), abs(gyro.z))) >= limit
  }
}
