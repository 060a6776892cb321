/// Turns sample times into filter steps that are safe to integrate.
///
/// - The first sample, a repeated time (a burst of samples with one
///   timestamp) and a time that goes backwards (a device that reset its
///   clock) all give a step of 0: nothing is integrated, the next step is
///   measured from the new time.
/// - A step longer than ``maximumStep`` is a gap in the data: it is reported
///   as such, so the estimators re-initialise from the next reading instead
///   of integrating one rate over seconds.
@usableFromInline
struct TimeStep: Sendable {
  @usableFromInline var lastTime: Double = .nan
  @usableFromInline let maximumStep: Double

  @usableFromInline
  init(maximumStep: Double) {
    self.maximumStep = maximumStep
  }

  @usableFromInline
  enum Step: Sendable {
    case first
    case interval(Double)
    case gap
  }

  /// The step from the previous sample to one at `time` seconds (finite).
  @inlinable @inline(__always)
  mutating func advance(to time: Double) -> Step {
    // `lastTime` is NaN or a finite time, so the step is NaN exactly before
    // the first sample: one comparison, where `isFinite` takes five.
    let dt = time - lastTime
    lastTime = time
    if dt.isNaN { return .first }
    if dt > maximumStep { return .gap }
    return .interval(dt > 0 ? dt : 0)
  }

  @inlinable
  mutating func reset() { lastTime = .nan }
}
