import Attitude
import Evdev
import Foundation
import SystemCalls

/// A failure of the pipeline beyond one node's or one file's own (those are
/// ``DeviceError``, ``IIOError``, ``RecordingError``): which device to use,
/// whether it can drive the card, a device that went away, a calibration
/// that could not measure.
///
/// An app switches on the case. Each description is one line that names the
/// device or directory, says what is wrong and what to do, in words that name
/// no command-line tool (a tool maps the cases to its own flags).
public enum MotionError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No event nodes at all in `directory`.
  case noInputDevices(directory: String)
  /// Input devices in `directory` (`count` of them), none of which can drive the card.
  case noMotionDevice(directory: String, count: Int)
  /// No motion device could be used because `count` nodes could not be
  /// opened; `first` says why for the first of them (permission denied, with
  /// the node, most often).
  case devicesNotReadable(count: Int, first: DeviceError)
  /// No device in `directory` has a gyroscope, so there is nothing to calibrate.
  case noGyroscopeDevice(directory: String)
  /// The device at `path` (or the device a recording was made of) can't
  /// drive the card: it is no accelerometer, IMU or joystick. `name` is the
  /// kernel's name of the device, `reason` why it can't.
  case notAMotionDevice(path: String, name: String, reason: String, isRecording: Bool)
  /// The device at `path` has no gyroscope, so it has no bias to measure.
  case noGyroscope(path: String, name: String)
  /// No IIO accelerometer or gyroscope is called `reference` in `directory`.
  case noIIOSensor(reference: String, directory: String)
  /// The live device went away: unplugged, or its driver removed.
  case deviceGone(path: String)
  /// `directory` cannot be watched (inotify) for a device coming back.
  case cannotWatch(directory: String, Errno)
  /// A calibration saw the device move (its readings varied); nothing was stored.
  case movedDuringCalibration(path: String)
  /// A calibration read a steady rate beyond any gyroscope's bias (the
  /// device was turning); `rateDegreesPerSecond` in deg/s, card frame.
  /// Nothing was stored.
  case turnedDuringCalibration(path: String, rateDegreesPerSecond: Vector3)
  /// A calibration got no gyroscope samples in `seconds`; nothing was stored.
  case noGyroscopeSamples(path: String, name: String, seconds: Double)

  /// The node, file or directory the error is about.
  public var path: String {
    switch self {
    case .noInputDevices(let directory), .noMotionDevice(let directory, _),
      .noGyroscopeDevice(let directory), .cannotWatch(let directory, _):
      return directory
    case .noIIOSensor(let reference, _): return reference
    case .devicesNotReadable(_, let first): return first.path
    case .notAMotionDevice(let path, _, _, _), .noGyroscope(let path, _), .deviceGone(let path),
      .movedDuringCalibration(let path), .turnedDuringCalibration(let path, _),
      .noGyroscopeSamples(let path, _, _):
      return path
    }
  }

  public var description: String {
    switch self {
    case .noInputDevices(let directory):
      return "no input devices in \(directory); attach a motion sensor or joystick, "
        + "or name the device's node"
    case .noMotionDevice(let directory, let count):
      return "no motion device among \(count) input devices in \(directory); "
        + "attach an accelerometer, an IMU or a joystick"
    case .devicesNotReadable(let count, let first):
      return "no usable motion device; \(count) could not be opened: \(first)"
    case .noGyroscopeDevice(let directory):
      return "no motion device with a gyroscope in \(directory) (an accelerometer needs no "
        + "calibration); attach a gamepad or IMU, or name the device's node"
    case .notAMotionDevice(let path, let name, let reason, let isRecording):
      return "\(Self.cannotDrive(path, name, reason)) "
        + (isRecording
          ? "Replay a recording of an accelerometer, an IMU or a joystick."
          : "Choose an accelerometer, an IMU or a joystick.")
    case .noGyroscope(let path, let name):
      return "\(path): \"\(name)\" has no gyroscope: nothing to calibrate (no bias to "
        + "measure; an accelerometer needs no calibration)"
    case .noIIOSensor(let reference, let directory):
      return "\(reference): no IIO accelerometer or gyroscope of that name in \(directory); "
        + "list the devices to see the sensors there are"
    case .deviceGone(let path):
      return "\(path) went away (unplugged?)"
    case .cannotWatch(let directory, let errno):
      return "cannot watch \(directory) for the device to come back: \(errno.message)"
    case .movedDuringCalibration(let path):
      return "\(path): the device moved during the measurement; "
        + "lay it on a table (or hold it still) and measure again. Nothing was stored."
    case .turnedDuringCalibration(let path, let rate):
      return "\(Self.turned(path, rate)); lay it on a table and measure again. Nothing was stored."
    case .noGyroscopeSamples(let path, let name, let seconds):
      return "\(path): \"\(name)\" sent no gyroscope samples in \(seconds) s; "
        + "check that it is switched on and reporting motion. Nothing was stored."
    }
  }

  /// "PATH: "NAME" can't drive the card: REASON.", what is wrong without the fix.
  public static func cannotDrive(_ path: String, _ name: String, _ reason: String) -> String {
    "\(path): \"\(name)\" can't drive the card: \(reason)."
  }

  /// What a calibration that read a turn says, without the fix.
  public static func turned(_ path: String, _ rate: Vector3) -> String {
    "\(path): the gyroscope read a steady "
      + [rate.x, rate.y, rate.z].map { String(format: "%.3f", $0) }.joined(separator: ", ")
      + " deg/s, more than a gyroscope's bias can be ("
      + String(format: "%.0f", GyroBiasCalibration.maximumBias * 180 / .pi)
      + " deg/s on an axis): the device was turning"
  }
}

/// The name ``MotionError`` had before 0.4.0.
@available(*, deprecated, renamed: "MotionError")
public typealias TiltError = MotionError
