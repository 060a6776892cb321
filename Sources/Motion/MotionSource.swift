import Attitude
import SensorData

/// One step of a source: motion, buttons, or both, at one time of the source's clock.
///
/// The step has one time: its motion sample carries the same, also after
/// ``time`` is changed (a live loop moves a reopened device's samples on to
/// the pipeline's clock that way).
public struct MotionStep: Sendable {
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

/// The name ``MotionStep`` had before 0.4.0.
@available(*, deprecated, renamed: "MotionStep")
public typealias SourceItem = MotionStep

/// Where the pipeline's samples come from: a recording or a device, already in
/// the card frame and SI units (contract §1.2), so nothing downstream sees evdev.
public protocol MotionSource {
  /// What the source's device reports: gyroscope, key codes, ranges.
  var capabilities: MotionCapabilities { get }
  /// The next step, or `nil` at the end of a recording.
  mutating func next() throws -> MotionStep?
  /// What a user must be told about the source before it plays, each line
  /// naming the file and line: a recording's last frame without
  /// `SYN_REPORT`, frames cut that never ended (``RecordingCheck/notes``).
  var notes: [String] { get }
}

extension MotionSource {
  public var notes: [String] { [] }
}

extension DeviceProfile {
  /// The largest magnitude, in g, that every accelerometer axis reads: the
  /// smallest of its absinfo limits (minimum and maximum, in counts) over
  /// the resolution. A reading at it is clipped. `nil` for a device without
  /// an accelerometer or without the axes' ranges.
  public var accelerometerRange: Double? {
    guard let resolution = accelResolution, resolution > 0, !accelAxes.isEmpty else { return nil }
    var counts = Double.infinity
    for axis in accelAxes {
      guard let info = axisInfo[axis], info.maximum > info.minimum else { return nil }
      counts = min(counts, Double(info.maximum).magnitude, Double(info.minimum).magnitude)
    }
    return counts / resolution
  }

  /// The largest rate, in rad/s, that every gyroscope axis reads: the
  /// smallest of its absinfo limits over the resolution (units per °/s).
  /// A reading at it is saturated. `nil` without a gyroscope or its ranges.
  public var gyroscopeRange: Double? {
    guard let resolution = gyroResolution, resolution > 0, let axes = gyroAxes, !axes.isEmpty
    else { return nil }
    var counts = Double.infinity
    for axis in axes {
      guard let info = axisInfo[axis], info.maximum > info.minimum else { return nil }
      counts = min(counts, Double(info.maximum).magnitude, Double(info.minimum).magnitude)
    }
    return counts / resolution * .pi / 180
  }
}

extension SIMD3 where Scalar == Double {
  public var vector: Vector3 { Vector3(x, y, z) }
}

extension DecodedSample {
  /// The decoded frame as a pipeline step.
  public var item: MotionStep {
    MotionStep(
      time: time,
      motion: acceleration.map {
        MotionSample(time: time, acceleration: $0.vector, rotationRate: rotationRate?.vector)
      },
      pressedButtons: buttons.filter(\.pressed).map(\.code))
  }
}
