import Attitude
import EvdevCore

/// One step of a source: motion, buttons, or both, at one time of the source's clock.
///
/// The step has one time: its motion sample carries the same, also after
/// ``time`` is changed (a live loop moves a reopened device's samples on to
/// the pipeline's clock that way).
public struct SourceItem {
  /// Seconds since the first sample of the source.
  public var time: Double
  /// The motion of the step, at ``time``.
  public var motion: MotionSample? {
    get {
      guard var sample = storedMotion else { return nil }
      sample.time = time
      return sample
    }
    set { storedMotion = newValue }
  }
  /// Buttons that went down in this step (`BTN_*` codes).
  public var pressedButtons: [UInt16]
  private var storedMotion: MotionSample?

  public init(time: Double, motion: MotionSample?, pressedButtons: [UInt16]) {
    self.time = time
    storedMotion = motion
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
  /// What a user must be told about the source before it plays, each line
  /// naming the file and line: a recording's last frame without
  /// `SYN_REPORT`, frames cut that never ended (``RecordingCheck/notes``).
  var notes: [String] { get }
}

extension MotionSource {
  public var buttons: Set<UInt16>? { nil }
  public var notes: [String] { [] }
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
