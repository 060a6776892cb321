import Foundation

/// Inclination from the accelerometer alone: gravity is the low-passed
/// direction of the specific force, with a time constant that grows with
/// the reading's distance from 1 g, so shakes and taps move it less than
/// turns do.
///
/// Yaw is unobservable; each step turns the previous orientation by the
/// smallest rotation that matches the new up vector, so yaw does not jump.
public struct AccelerometerTiltEstimator: AttitudeEstimator, Sendable {
  public let parameters: FusionParameters

  /// The estimated world up vector (unit), card frame.
  public private(set) var up = Vector3(0, 0, 1)
  var orientationState = Quaternion.identity
  var hasInclination = false
  var timeStep: TimeStep

  public init(parameters: FusionParameters = .init()) {
    self.parameters = parameters
    timeStep = TimeStep(maximumStep: parameters.maximumStep)
  }

  /// The current orientation, card → world.
  public var orientation: Quaternion { orientationState }

  public mutating func reset() {
    up = Vector3(0, 0, 1)
    orientationState = .identity
    hasInclination = false
    timeStep.reset()
  }

  public mutating func update(_ sample: MotionSample) -> AttitudeEstimate? {
    guard sample.isFinite else { return nil }
    let step = timeStep.advance(to: sample.time)
    let a = sample.acceleration
    let magnitude = a.length
    let range = parameters.usableAccelerationRange
    if range.contains(magnitude) {
      let measured = a / magnitude
      let newUp: Vector3
      switch step {
      case .first, .gap:
        newUp = measured
      case .interval(let dt):
        if hasInclination {
          let tau =
            parameters.tiltTimeConstant + parameters.tiltMagnitudeGain * abs(magnitude - 1)
          let alpha = SmoothingFactor.alpha(interval: dt, timeConstant: tau)
          newUp = (up + alpha * (measured - up)).normalized ?? measured
        } else {
          newUp = measured
        }
      }
      if hasInclination {
        orientationState =
          (orientationState * Quaternion(rotating: newUp, onto: up)).normalized
      } else {
        orientationState = Quaternion(rotating: newUp, onto: Vector3(0, 0, 1))
        hasInclination = true
      }
      up = newUp
    }
    return AttitudeEstimate(orientation: orientationState, rotationRate: sample.rotationRate)
  }
}
