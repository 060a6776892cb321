// sin and cos only: math, not system calls.
import func Glibc.cos
import func Glibc.sin

/// A button going down or up.
public struct ButtonChange: Hashable, Sendable {
  /// The `BTN_*` code.
  public var code: UInt16
  public var pressed: Bool

  public init(code: UInt16, pressed: Bool) {
    self.code = code
    self.pressed = pressed
  }
}

/// One sample of a device, in the card frame and SI-ish units (contract §1).
public struct DecodedSample: Hashable, Sendable {
  /// Seconds since the first frame of the source; never decreases.
  public var time: Double
  /// Specific force in g, card frame (lying still face up: (0, 0, +1)); nil
  /// when the frame carried no motion.
  public var acceleration: SIMD3<Double>?
  /// Rad/s in the card frame; nil without a gyroscope or without motion.
  public var rotationRate: SIMD3<Double>?
  /// Buttons pressed or released in this frame, in event order.
  public var buttons: [ButtonChange]

  public init(
    time: Double, acceleration: SIMD3<Double>?, rotationRate: SIMD3<Double>?,
    buttons: [ButtonChange]
  ) {
    self.time = time
    self.acceleration = acceleration
    self.rotationRate = rotationRate
    self.buttons = buttons
  }
}

/// Turns the frames of a classified device into samples.
///
/// evdev reports only the axes that changed (and the fuzz filter drops small
/// changes), so the decoder keeps every axis's last value and each motion
/// sample carries the full vector. Before an axis is first reported its value
/// is the `AbsInfo.value` of the profile (0 for a recording).
///
/// A frame has motion when it reports one of the profile's axes or, for an
/// accelerometer or IMU, an `MSC_TIMESTAMP` (a report in which nothing moved
/// beyond the fuzz). A frame with buttons only gives a sample with the
/// buttons and nil motion; a frame with neither gives nil.
///
/// A joystick's stick becomes a synthetic accelerometer reading: each axis is
/// normalised to −1…1 about the centre of its range, with `flat` as a dead
/// zone; full deflection is `stickRange` degrees; stick right is positive
/// roll r, stick toward the player (positive `ABS_Y`) positive pitch p; the
/// reading is the up-vector f = (−cos p·sin r, sin p, cos p·cos r).
public struct SampleDecoder: Sendable {
  public let profile: DeviceProfile
  /// Degrees of tilt at full stick deflection.
  public let stickRange: Double
  private var values: [Int32] = Array(repeating: 0, count: 64)
  private var clock: SampleClock
  private let accelScale: Double
  private let gyroScale: Double

  /// How many times `MSC_TIMESTAMP` wrapped at 2³².
  public var timestampWraps: Int { clock.wraps }
  /// How many times the device reset `MSC_TIMESTAMP` (a big backward jump).
  public var timestampResets: Int { clock.resets }
  /// The `MSC_TIMESTAMP` clock's rate against the event clock's, and whether
  /// the event clock's rate times the samples (contract §1.7).
  public var timestampRate: ClockRateCheck { clock.rateCheck }

  /// A joystick's tilt at full deflection when none is given, degrees (contract §2.5).
  public static let defaultStickRangeDegrees = 45.0
  /// The stick ranges a decoder may be given, degrees.
  public static let stickRangeDegreesRange: ClosedRange<Double> = 1...90

  public init(profile: DeviceProfile, stickRange: Double = defaultStickRangeDegrees) {
    self.profile = profile
    self.stickRange = stickRange
    clock = SampleClock(useMsc: profile.timestamps == .msc)
    accelScale = 1 / (profile.accelResolution ?? 1)
    gyroScale = (Double.pi / 180) / (profile.gyroResolution ?? 1)
    for (code, info) in profile.axisInfo where code < 64 { values[Int(code)] = info.value }
  }

  public mutating func decode(_ frame: Frame) -> DecodedSample? {
    guard let frameTime = frame.time else { return nil }
    var motion = false
    var msc: UInt32?
    var buttons: [ButtonChange] = []
    let isSensor = profile.kind == .imu || profile.kind == .accelerometer
    for event in frame.events {
      switch event.type {
      case EventType.abs where event.code < 64:
        values[Int(event.code)] = event.value
        if profile.accelAxes.contains(event.code) || profile.gyroAxes?.contains(event.code) == true
        {
          motion = true
        }
      case EventType.msc where event.code == MscCode.timestamp:
        msc = UInt32(bitPattern: event.value)
        if isSensor { motion = true }
      case EventType.key:
        if let change = Buttons.change(event, buttons: profile.buttons) { buttons.append(change) }
      default:
        break
      }
    }
    let micros = clock.advance(eventTime: frameTime.totalMicroseconds, msc: msc)
    guard profile.kind != .unsupported, motion || !buttons.isEmpty else { return nil }
    var sample = DecodedSample(
      time: Double(micros) / 1_000_000, acceleration: nil, rotationRate: nil, buttons: buttons)
    if motion {
      if profile.kind == .joystick {
        sample.acceleration = stickUpVector()
      } else {
        sample.acceleration = profile.deviceToCard.apply(vector(profile.accelAxes) * accelScale)
        if let gyro = profile.gyroAxes {
          sample.rotationRate = profile.deviceToCard.apply(vector(gyro) * gyroScale)
        }
      }
    }
    return sample
  }

  private func vector(_ axes: [UInt16]) -> SIMD3<Double> {
    SIMD3(Double(values[Int(axes[0])]), Double(values[Int(axes[1])]), Double(values[Int(axes[2])]))
  }

  private func stickUpVector() -> SIMD3<Double> {
    let radians = stickRange * .pi / 180
    let roll = normalised(AbsCode.x) * radians
    let pitch = normalised(AbsCode.y) * radians
    return SIMD3(-cos(pitch) * sin(roll), sin(pitch), cos(pitch) * cos(roll))
  }

  /// The stick axis in −1…1 about its centre, 0 inside the `flat` dead zone.
  private func normalised(_ code: UInt16) -> Double {
    guard let info = profile.axisInfo[code] else { return 0 }
    let centre = (Double(info.minimum) + Double(info.maximum)) / 2
    let half = (Double(info.maximum) - Double(info.minimum)) / 2
    let flat = min(Double(max(info.flat, 0)), half * 0.99)
    let offset = Double(values[Int(code)]) - centre
    guard abs(offset) > flat, half > 0 else { return 0 }
    let n = (abs(offset) - flat) / (half - flat)
    return min(n, 1) * (offset < 0 ? -1 : 1)
  }
}
