import Attitude
import Evdev

/// One step of a source: motion, buttons, or both, at one time of the source's clock.
struct SourceItem {
  /// Seconds since the first sample of the source.
  var time: Double
  var motion: MotionSample?
  /// Buttons that went down in this step (`BTN_*` codes).
  var pressedButtons: [UInt16]
}

/// Where the pipeline's samples come from: a recording or a device, already in
/// the card frame and SI units (SPEC §1), so nothing downstream sees evdev.
protocol MotionSource {
  var hasGyroscope: Bool { get }
  /// The next step, or `nil` at the end of a recording.
  mutating func next() throws -> SourceItem?
}

extension SIMD3 where Scalar == Double {
  var vector: Vector3 { Vector3(x, y, z) }
}

extension DecodedSample {
  /// The decoded frame as a pipeline step.
  var item: SourceItem {
    SourceItem(
      time: time,
      motion: acceleration.map {
        MotionSample(time: time, acceleration: $0.vector, rotationRate: rotationRate?.vector)
      },
      pressedButtons: buttons.filter(\.pressed).map(\.code))
  }
}
