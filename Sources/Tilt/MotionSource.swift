import Attitude
import EvdevCore

/// One step of a source: motion, buttons, or both, at one time of the source's clock.
public struct SourceItem {
  /// Seconds since the first sample of the source.
  public var time: Double
  public var motion: MotionSample?
  /// Buttons that went down in this step (`BTN_*` codes).
  public var pressedButtons: [UInt16]

  public init(time: Double, motion: MotionSample?, pressedButtons: [UInt16]) {
    self.time = time
    self.motion = motion
    self.pressedButtons = pressedButtons
  }
}

/// Where the pipeline's samples come from: a recording or a device, already in
/// the card frame and SI units (SPEC §1), so nothing downstream sees evdev.
public protocol MotionSource {
  var hasGyroscope: Bool { get }
  /// The key codes (`EV_KEY`) of the source's device, which choose its flip
  /// button (``TiltPipeline/init(configuration:hasGyroscope:buttons:sink:)``);
  /// `nil` when not known.
  var buttons: Set<UInt16>? { get }
  /// The next step, or `nil` at the end of a recording.
  mutating func next() throws -> SourceItem?
}

extension MotionSource {
  public var buttons: Set<UInt16>? { nil }
}

extension SIMD3 where Scalar == Double {
  public var vector: Vector3 { Vector3(x, y, z) }
}

extension DecodedSample {
  /// The decoded frame as a pipeline step.
  public var item: SourceItem {
    SourceItem(
      time: time,
      motion: acceleration.map {
        MotionSample(time: time, acceleration: $0.vector, rotationRate: rotationRate?.vector)
      },
      pressedButtons: buttons.filter(\.pressed).map(\.code))
  }
}
