/// Anything that yields motion samples in time order: a device, a
/// recording, a CSV log, a test.
public protocol MotionSampleSource {
  /// The next sample, or `nil` at the end of the source.
  mutating func nextSample() throws -> MotionSample?
}
